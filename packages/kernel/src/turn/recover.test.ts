import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { echo, replies, simpleLoop } from '../../test/helpers.js';
import { Kernel, type KernelOptions } from '../kernel.js';

const open: Kernel[] = [];
afterEach(() => {
  for (const k of open.splice(0)) k.close();
});

function start(options: KernelOptions): Kernel {
  const kernel = Kernel.open(options);
  kernel.primitives.register('t', echo);
  kernel.primitives.register('t', { ...echo, name: 'wipe', tier: 'destructive' });
  open.push(kernel);
  return kernel;
}

function fileOptions(): KernelOptions {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-recover-')));
  return { dbPath: join(dir, 'log.db'), key: randomBytes(32), workspace: dir };
}

/**
 * What a process killed mid-turn leaves: the prompt, the turn's start, the model's message with two calls,
 * one answered, the other waiting for a person.
 */
function killedMidTurn(kernel: Kernel, session: string): void {
  kernel.append(session, { type: 'message.user', actor: 'user', payload: { text: 'clean up' } });
  kernel.append(session, { type: 'turn.started', actor: 'kernel', payload: { provider: 'test', strategy: 'simple' } });
  kernel.append(session, {
    type: 'message.assistant',
    actor: 'model',
    payload: {
      text: '',
      tool_calls: [
        { id: 'c1', name: 'echo', args: { text: 'a' } },
        { id: 'c2', name: 'wipe', args: { text: 'b' } },
      ],
      stop_reason: 'tool_use',
      provider: 'test',
    },
  });
  kernel.append(session, { type: 'tool.completed', actor: 'tool:echo', payload: { call_id: 'c1', name: 'echo', content: 'a' } });
  kernel.append(session, {
    type: 'confirmation.requested',
    actor: 'kernel',
    payload: { call_id: 'c2', name: 'wipe', tier: 'destructive', reason: 'wipe is destructive', effect: 'wipe' },
  });
}

describe('Kernel.recover', () => {
  it('closes a turn a killed process left open with exactly the expired question, the interrupted call and the turn\'s end', async () => {
    const options = fileOptions();
    const before = start(options);
    const session = before.sessions.create({ workspace: options.workspace });
    await before.run({ session, prompt: 'first', provider: replies([{ text: 'one' }]), strategy: simpleLoop });
    killedMidTurn(before, session);
    const head = before.log.head(session)!.seq;
    before.close();

    const kernel = start(options);
    expect(kernel.openTurns()).toEqual([session]);
    expect(kernel.recover(session)).toBe(true);
    const written = kernel.log.read(session, head + 1).map((e) => [e.type, e.actor, e.payload]);
    expect(written).toEqual([
      ['confirmation.expired', 'kernel', { call_id: 'c2', name: 'wipe' }],
      ['tool.failed', 'kernel', { call_id: 'c2', name: 'wipe', envelope: expect.objectContaining({ category: 'OUTCOME_UNKNOWN', code: 'TOOL_INTERRUPTED' }) }],
      [
        'turn.ended',
        'kernel',
        {
          reason: 'interrupted',
          envelope: expect.objectContaining({
            category: 'OUTCOME_UNKNOWN',
            code: 'TURN_INTERRUPTED',
            remediation: expect.stringMatching(/process running this turn stopped.*check the effects of the calls marked interrupted.*continue/i),
          }),
        },
      ],
    ]);
    expect(kernel.log.verify().ok).toBe(true);
    expect(kernel.openTurns()).toEqual([]);
    expect(kernel.recover(session)).toBe(false);

    const next = replies([{ text: 'continued' }]);
    const result = await kernel.run({ session, prompt: 'go on', provider: next, strategy: simpleLoop });
    expect(result).toMatchObject({ reason: 'answer', answer: 'continued' });
    const window = next.requests[0]!.messages.map((m) => (m.role === 'tool' ? `tool:${m.callId}:${m.isError}` : `${m.role}:${m.text}`));
    expect(window).toEqual(['user:first', 'assistant:one', 'user:clean up', 'assistant:', 'tool:c1:false', 'tool:c2:true', 'user:go on']);
    expect(kernel.log.read(session).filter((e) => e.type === 'turn.ended').map((e) => e.payload.reason)).toEqual(['answer', 'interrupted', 'answer']);
    expect(kernel.log.verify().ok).toBe(true);
  });

  it('reads only the open turn, not the session\'s history', () => {
    const options = fileOptions();
    const kernel = start(options);
    const session = kernel.sessions.create({ workspace: options.workspace });
    for (let i = 0; i < 50; i++) kernel.append(session, { type: 'note.added', actor: 'kernel', payload: { i } });
    killedMidTurn(kernel, session);
    const started = kernel.log.read(session).find((e) => e.type === 'turn.started')!.seq;
    const reads = vi.spyOn(kernel.log, 'read');
    expect(kernel.recover(session)).toBe(true);
    expect(reads.mock.calls.map((args) => args[1])).toEqual([started]);
  });

  it('leaves a turn alone while the process that runs it is alive, and closes it once that process is gone', async () => {
    const options = fileOptions();
    const kernel = start(options);
    const session = kernel.sessions.create({ workspace: options.workspace });
    const { spawn } = await import('node:child_process');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    kernel.append(session, { type: 'turn.started', actor: 'kernel', payload: { provider: 'test', strategy: 'simple', pid: other.pid } });
    expect(kernel.recover(session)).toBe(false);
    expect(kernel.openTurns()).toEqual([session]);
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    expect(kernel.recover(session)).toBe(true);
    expect(kernel.log.read(session).at(-1)?.payload.reason).toBe('interrupted');
  });

  it('leaves sessions with no turn, or whose last turn ended, as they are', async () => {
    const options = fileOptions();
    const kernel = start(options);
    const empty = kernel.sessions.create({ workspace: options.workspace });
    const done = kernel.sessions.create({ workspace: options.workspace });
    await kernel.run({ session: done, prompt: 'hi', provider: replies([{ text: 'hello' }]), strategy: simpleLoop });
    const heads = [kernel.log.head(empty)!.seq, kernel.log.head(done)!.seq];
    expect([kernel.recover(empty), kernel.recover(done)]).toEqual([false, false]);
    expect([kernel.log.head(empty)!.seq, kernel.log.head(done)!.seq]).toEqual(heads);
    expect(kernel.openTurns()).toEqual([]);
  });

  it('lists every session whose last turn is open, and a run closes its own session\'s first', async () => {
    const options = fileOptions();
    const kernel = start(options);
    const a = kernel.sessions.create({ workspace: options.workspace });
    const b = kernel.sessions.create({ workspace: options.workspace });
    const c = kernel.sessions.create({ workspace: options.workspace });
    killedMidTurn(kernel, a);
    killedMidTurn(kernel, b);
    await kernel.run({ session: c, prompt: 'hi', provider: replies([{ text: 'hello' }]), strategy: simpleLoop });
    expect(kernel.openTurns().sort()).toEqual([a, b].sort());
    await kernel.run({ session: a, prompt: 'again', provider: replies([{ text: 'ok' }]), strategy: simpleLoop });
    expect(kernel.openTurns()).toEqual([b]);
    expect(kernel.log.read(a).filter((e) => e.type.startsWith('turn.')).map((e) => [e.type, e.payload.reason])).toEqual([
      ['turn.started', undefined],
      ['turn.ended', 'interrupted'],
      ['turn.started', undefined],
      ['turn.ended', 'answer'],
    ]);
  });
});
