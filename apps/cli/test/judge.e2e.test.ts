import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

let box: CliSandbox;
beforeEach(() => {
  box = new CliSandbox();
});
afterEach(() => box.remove());

describe('nodwyn run --judge', () => {
  it('asks for a plan when the gate says so, has the judge approve it, then answers', () => {
    const judge = box.script([{ text: '{"plan_needed": true, "score": 0.9, "feedback": ""}' }]);
    box.write(`${box.home}/config.toml`, `[judge]\nprovider = "scripted"\n[judge.options]\nscript = "${judge}"\n`);
    const model = box.script([{ text: '1. Read README.md.\n2. Summarise it.' }, { text: 'Done.' }]);
    const out = box.run(['run', '--judge', '--script', model, 'summarise the README']);
    expect([out.code, out.stdout], out.stderr).toEqual([0, 'Done.\n']);
    const events = box.events(box.sessions()[0]!.id);
    expect(events.map((e) => e.type)).toEqual([
      'session.created', 'session.titled', 'message.user', 'turn.started', 'context.added', 'context.added', 'judge.scored', 'plan.requested', 'message.assistant', 'judge.scored', 'plan.approved', 'message.assistant', 'turn.ended',
    ]);
    expect(events.filter((e) => e.type === 'judge.scored').map((e) => [e.payload.seam, e.payload.decision])).toEqual([['gate', 'plan'], ['plan', 'approved']]);
  });

  it('is refused when no judge model is configured, before anything runs', () => {
    const out = box.run(['run', '--judge', '--script', box.script([{ text: 'x' }]), 'hi']);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain('JUDGE_NOT_CONFIGURED');
    expect(box.sessions()).toEqual([]);
  });
});
