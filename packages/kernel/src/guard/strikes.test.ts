import type { TaintTracker } from '@nodwyn/plugin-api';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echo, replies, simpleLoop } from '../../test/helpers.js';
import { Kernel } from '../kernel.js';
import { STRIKE_EVENT, WITHHELD_NOTICE } from './strikes.js';

const SECRET = 'glpat-Xk29fLqP0vT7zR4mW8sNc';

/** A tracker that knows one value, matched as a substring of 10 characters or more. */
const tracker: TaintTracker = {
  remember: () => undefined,
  tagsOf: (_s, text) => tracker.matches(_s, text),
  matches: (_s, text) => (Array.from({ length: SECRET.length - 9 }, (_, i) => SECRET.slice(i, i + 10)).some((w) => text.includes(w)) ? ['gitlab-token'] : []),
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(dir: string, key: Buffer): Kernel {
  const kernel = Kernel.open({ dbPath: join(dir, 'nodwyn.db'), key, workspace: dir, strikeLimit: 2 });
  kernel.primitives.register('t', echo);
  kernel.useTaint(() => tracker);
  return kernel;
}

describe('strikes', () => {
  it('withholds model output holding a remembered value whole, and keeps a session closed across processes and forks', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-strikes-')));
    dirs.push(dir);
    const key = randomBytes(32);
    let kernel = open(dir, key);
    const session = kernel.sessions.create({ workspace: dir });
    const provider = replies([
      { text: `maybe ${SECRET.slice(0, 12)}?`, calls: [{ name: 'echo', args: { text: 'a' } }] },
      { text: 'clean', calls: [{ name: 'echo', args: { text: SECRET.slice(5, 16) } }] },
      { text: 'never asked' },
    ]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop });
    expect([result.reason, result.envelope?.code]).toEqual(['budget', 'SECURITY_STRIKES_EXCEEDED']);
    expect(provider.requests).toHaveLength(2);
    const events = kernel.log.read(session);
    expect(events.filter((e) => e.type === 'message.assistant').map((e) => [e.payload.text, e.payload.tool_calls])).toEqual([
      [WITHHELD_NOTICE, [{ id: 'c0_0', name: 'echo', args: {} }]],
      [WITHHELD_NOTICE, [{ id: 'c1_0', name: 'echo', args: {} }]],
    ]);
    expect(events.filter((e) => e.type === 'tool.completed')).toHaveLength(0);
    expect(JSON.stringify(events)).not.toContain(SECRET.slice(5, 15));
    const fork = kernel.sessions.fork(session);
    kernel.close();

    kernel = open(dir, key);
    for (const s of [session, fork]) {
      const call = await kernel.apply({ session: s, name: 'echo', args: { text: 'clean' }, origin: 'model' });
      expect(!call.ok && call.envelope.code).toBe('SECURITY_STRIKES_EXCEEDED');
    }
    expect(kernel.log.read(fork).filter((e) => e.type === STRIKE_EVENT)).toHaveLength(0);
    kernel.close();
  });
});
