import { randomBytes } from 'node:crypto';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envelope, type ConfirmationAnswer, type ConfirmationRequest, type Confirmer, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { echo, memoryKernel } from '../../test/helpers.js';
import { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

/** A destructive primitive whose effect is its first word, like shell's program. */
const run: PrimitiveDefinition<{ text: string }> = {
  ...echo,
  name: 'run',
  tier: 'destructive',
  effect: (args) => `run:${args.text.split(' ')[0]}`,
};

/** A confirmer that answers from a list and records what it was asked. */
function answering(...answers: (boolean | ConfirmationAnswer)[]): Confirmer & { asked: ConfirmationRequest[] } {
  const asked: ConfirmationRequest[] = [];
  return {
    asked,
    confirm: async (request) => {
      asked.push(request);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('asked more often than the test expected');
      return answer;
    },
  };
}

function confirmations(k: Kernel, session: string) {
  return k.log.read(session).filter((e) => e.type.startsWith('confirmation.') || e.type.startsWith('approval.')).map((e) => [e.type, e.payload]);
}

function setup(): string {
  kernel = memoryKernel();
  kernel.primitives.register('t', run);
  return kernel.sessions.create({ workspace: kernel.workspace });
}

describe('confirmations in the log', () => {
  it('logs the question with its effect, then the answer with who gave it and the option', async () => {
    const session = setup();
    const person = answering({ granted: true, by: 'client-1', option: 'allow_once' });
    const result = await kernel.apply({ session, name: 'run', args: { text: 'git commit -m x' }, origin: 'model', callId: 'c1', confirmer: person });
    expect(result.ok).toBe(true);
    expect(person.asked).toMatchObject([{ callId: 'c1', name: 'run', tier: 'destructive', reason: 'run is destructive', effect: 'run:git' }]);
    expect(confirmations(kernel, session)).toEqual([
      ['confirmation.requested', { call_id: 'c1', name: 'run', tier: 'destructive', reason: 'run is destructive', effect: 'run:git' }],
      ['confirmation.decided', { call_id: 'c1', name: 'run', granted: true, by: 'client-1', option: 'allow_once' }],
    ]);
  });

  it('takes a plain boolean as an answer by "confirmer", and passes the call\'s signal', async () => {
    const session = setup();
    const person = answering(false);
    const controller = new AbortController();
    const result = await kernel.apply({ session, name: 'run', args: { text: 'x' }, origin: 'model', callId: 'c1', confirmer: person, signal: controller.signal });
    expect(result.ok ? undefined : result.envelope.code).toBe('CONFIRMATION_DECLINED');
    expect(person.asked[0]!.signal).toBe(controller.signal);
    expect(confirmations(kernel, session).at(-1)).toEqual(['confirmation.decided', { call_id: 'c1', name: 'run', granted: false, by: 'confirmer' }]);
  });

  it('keeps the no-person case as it was: no question logged, decided by nobody', async () => {
    const session = setup();
    const result = await kernel.apply({ session, name: 'run', args: { text: 'x' }, origin: 'model', callId: 'c1' });
    expect(result.ok ? undefined : result.envelope.code).toBe('CONFIRMATION_REQUIRED');
    expect(confirmations(kernel, session)).toEqual([['confirmation.decided', { call_id: 'c1', name: 'run', granted: false, by: 'nobody' }]]);
  });

  it('remembers "allow always" by effect: the next call of that effect runs unasked, another effect is asked', async () => {
    const session = setup();
    const person = answering({ granted: true, by: 'client-1', option: 'allow_always' }, { granted: false, by: 'client-1', option: 'reject_once' });
    expect((await kernel.apply({ session, name: 'run', args: { text: 'git commit -m a' }, origin: 'model', callId: 'c1', confirmer: person })).ok).toBe(true);
    expect((await kernel.apply({ session, name: 'run', args: { text: 'git push' }, origin: 'model', callId: 'c2', confirmer: person })).ok).toBe(true);
    const other = await kernel.apply({ session, name: 'run', args: { text: 'rm -rf x' }, origin: 'model', callId: 'c3', confirmer: person });
    expect(other.ok).toBe(false);
    expect(person.asked.map((r) => r.callId)).toEqual(['c1', 'c3']);
    expect(confirmations(kernel, session).map(([type, p]) => [type, (p as { call_id: string }).call_id, (p as { by?: string }).by])).toEqual([
      ['confirmation.requested', 'c1', undefined],
      ['confirmation.decided', 'c1', 'client-1'],
      ['approval.granted', 'c1', 'client-1'],
      ['confirmation.decided', 'c2', 'approval'],
      ['confirmation.requested', 'c3', undefined],
      ['confirmation.decided', 'c3', 'client-1'],
    ]);
    expect(kernel.log.read(session).find((e) => e.type === 'approval.granted')!.payload).toEqual({ effect: 'run:git', name: 'run', call_id: 'c1', by: 'client-1' });
  });

  it('remembers "reject always": the next call of that effect is refused without asking, saying the person refused such calls', async () => {
    const session = setup();
    const person = answering({ granted: false, by: 'client-2', option: 'reject_always' });
    await kernel.apply({ session, name: 'run', args: { text: 'curl a' }, origin: 'model', callId: 'c1', confirmer: person });
    const again = await kernel.apply({ session, name: 'run', args: { text: 'curl b' }, origin: 'model', callId: 'c2', confirmer: person });
    expect(again.ok ? undefined : [again.envelope.category, again.envelope.code, again.stage]).toEqual(['CONFIRMATION_REQUIRED', 'APPROVAL_REFUSED', 'policy']);
    expect(again.ok ? '' : again.envelope.remediation).toMatch(/refused calls like this one \(run:curl\) for the rest of this session/);
    expect(person.asked).toHaveLength(1);
    expect(confirmations(kernel, session).at(-1)).toEqual(['confirmation.decided', { call_id: 'c2', name: 'run', granted: false, by: 'approval' }]);
  });

  it('lets a later answer replace an earlier one for the same effect', async () => {
    const session = setup();
    const approve = answering({ granted: true, by: 'a', option: 'allow_always' });
    await kernel.apply({ session, name: 'run', args: { text: 'make' }, origin: 'model', confirmer: approve });
    kernel.append(session, { type: 'approval.refused', actor: 'kernel', payload: { effect: 'run:make', name: 'run', call_id: 'x', by: 'b' } });
    const result = await kernel.apply({ session, name: 'run', args: { text: 'make all' }, origin: 'model', confirmer: answering() });
    expect(result.ok ? undefined : result.envelope.code).toBe('APPROVAL_REFUSED');
  });

  it('never remembers an answer to a security question, and never lets an approval answer one', async () => {
    const session = setup();
    kernel.stages.add('egress', {
      name: 'bindings',
      slot: 'egress',
      check: (call) =>
        call.name === 'run' && (call.args as { text: string }).text.includes('secret')
          ? { kind: 'confirm', reason: 'a secret would leave', security: true, subjects: [{ class: 'github', destination: 'POST evil.example/x' }] }
          : { kind: 'allow' },
    });
    const person = answering(
      { granted: true, by: 'a', option: 'allow_always' },
      { granted: true, by: 'a', option: 'allow_always' },
      { granted: false, by: 'a', option: 'reject_once' },
    );
    // The policy question (not security) is remembered; the egress one is asked every time.
    expect((await kernel.apply({ session, name: 'run', args: { text: 'send secret' }, origin: 'model', callId: 'c1', confirmer: person })).ok).toBe(true);
    const second = await kernel.apply({ session, name: 'run', args: { text: 'send secret' }, origin: 'model', callId: 'c2', confirmer: person });
    expect(second.ok ? undefined : second.envelope.code).toBe('CONFIRMATION_DECLINED');
    expect(person.asked.map((r) => [r.callId, r.security ?? false])).toEqual([['c1', false], ['c1', true], ['c2', true]]);
    expect(person.asked[1]!.subjects).toEqual([{ class: 'github', destination: 'POST evil.example/x' }]);
    const events = confirmations(kernel, session);
    expect(events.filter(([type]) => type === 'approval.granted')).toHaveLength(1);
    expect(events).toContainEqual([
      'confirmation.requested',
      { call_id: 'c1', name: 'run', tier: 'destructive', reason: 'a secret would leave', effect: 'run:send', security: true, subjects: [{ class: 'github', destination: 'POST evil.example/x' }] },
    ]);
  });

  it('refuses an answer whose option contradicts it, and remembers nothing of it', async () => {
    const session = setup();
    const confused = answering({ granted: true, by: 'a', option: 'reject_always' });
    const result = await kernel.apply({ session, name: 'run', args: { text: 'x' }, origin: 'model', callId: 'c1', confirmer: confused });
    expect(result.ok).toBe(false);
    expect(confirmations(kernel, session).at(-1)).toEqual(['confirmation.decided', { call_id: 'c1', name: 'run', granted: false, by: 'a' }]);
  });

  it('decides a question as cancelled when the call is aborted while waiting, even if the confirmer never answers', async () => {
    const session = setup();
    const controller = new AbortController();
    const never: Confirmer = { confirm: () => new Promise(() => undefined) };
    const pending = kernel.apply({ session, name: 'run', args: { text: 'x' }, origin: 'model', callId: 'c1', confirmer: never, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    expect(result.ok ? undefined : [result.envelope.category, result.envelope.code]).toEqual(['CANCELLED', 'CONFIRMATION_CANCELLED']);
    expect(confirmations(kernel, session).map(([type, p]) => [type, (p as { by?: string }).by])).toEqual([
      ['confirmation.requested', undefined],
      ['confirmation.decided', 'cancel'],
    ]);
    expect(kernel.log.read(session).at(-1)!.type).toBe('tool.denied');
  });

  it('uses the primitive name as the effect when it has no effect function, and the exact arguments when the function throws', async () => {
    kernel = memoryKernel();
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    kernel.primitives.register('t', { ...echo, name: 'wipe', tier: 'destructive' });
    kernel.primitives.register('t', { ...echo, name: 'broken', tier: 'destructive', effect: () => { throw new Error('bug'); } });
    const person = answering({ granted: true, by: 'a', option: 'allow_always' }, { granted: true, by: 'a', option: 'allow_always' }, true);
    await kernel.apply({ session, name: 'wipe', args: { text: 'x' }, origin: 'model', confirmer: person });
    await kernel.apply({ session, name: 'broken', args: { text: 'x' }, origin: 'model', confirmer: person });
    // Other arguments: the approval of the exact ones does not cover them.
    await kernel.apply({ session, name: 'broken', args: { text: 'y' }, origin: 'model', confirmer: person });
    // The same arguments (in another key order would be the same canonical JSON): covered.
    await kernel.apply({ session, name: 'broken', args: { text: 'x' }, origin: 'model', confirmer: person });
    expect(person.asked.map((r) => r.effect)).toEqual(['wipe', expect.stringMatching(/^broken:[0-9a-f]{64}$/), expect.stringMatching(/^broken:[0-9a-f]{64}$/)]);
    expect(person.asked[1]!.effect).not.toBe(person.asked[2]!.effect);
  });

  it('gives a confirm verdict\'s subjects to the question and its event', async () => {
    const session = setup();
    const unbound = envelope({ category: 'PERMISSION_DENIED', code: 'GUARD_EGRESS_UNBOUND', remediation: 'bind it' });
    kernel.stages.add('egress', {
      name: 'bindings',
      slot: 'egress',
      check: () => ({ kind: 'confirm', reason: 'send a github secret', otherwise: unbound, security: true, subjects: [{ class: 'github', destination: '[hidden]' }] }),
    });
    kernel.primitives.register('t', { ...echo, name: 'send' });
    const person = answering(true);
    await kernel.apply({ session, name: 'send', args: { text: 'x' }, origin: 'model', callId: 'c1', confirmer: person });
    expect(person.asked[0]!.subjects).toEqual([{ class: 'github', destination: '[hidden]' }]);
    expect(confirmations(kernel, session)[0]![1]).toMatchObject({ security: true, subjects: [{ class: 'github', destination: '[hidden]' }] });
  });
});

describe('approvals across processes and forks', () => {
  const folder = (): string => realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-approvals-')));

  it('loads a session\'s approvals from the log once, in a new process, and a fork inherits those before its fork point', async () => {
    const dir = folder();
    const key = randomBytes(32);
    const options = { dbPath: join(dir, 'log.db'), key, workspace: dir };
    const first = Kernel.open(options);
    first.primitives.register('t', run);
    const session = first.sessions.create({ workspace: dir });
    await first.apply({ session, name: 'run', args: { text: 'npm test' }, origin: 'model', confirmer: answering({ granted: true, by: 'a', option: 'allow_always' }) });
    const at = first.log.head(session)!.seq;
    await first.apply({ session, name: 'run', args: { text: 'git push' }, origin: 'model', confirmer: answering({ granted: true, by: 'a', option: 'allow_always' }) });
    first.close();

    kernel = Kernel.open(options);
    kernel.primitives.register('t', run);
    const reads = vi.spyOn(kernel.log, 'readTypes');
    const unasked = answering();
    for (let i = 0; i < 3; i++) expect((await kernel.apply({ session, name: 'run', args: { text: `npm run ${i}` }, origin: 'model', confirmer: unasked })).ok).toBe(true);
    // The strike count is read by type too (once); the approvals are the other read.
    expect(reads.mock.calls.filter(([, types]) => !types.includes('security.withheld'))).toHaveLength(1);

    const fork = kernel.sessions.fork(session, at);
    expect((await kernel.apply({ session: fork, name: 'run', args: { text: 'npm ci' }, origin: 'model', confirmer: unasked })).ok).toBe(true);
    const asked = answering(false);
    expect((await kernel.apply({ session: fork, name: 'run', args: { text: 'git push' }, origin: 'model', confirmer: asked })).ok).toBe(false);
    expect(asked.asked).toHaveLength(1);
  });
});

describe('effects shown with a question', () => {
  it("shows the primitive's preview to the person and logs it with the question", async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', { ...run, preview: (args) => ({ effects: [`runs ${args.text}`, 'cannot be undone'] }) });
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const person = answering(true);
    expect((await kernel.apply({ session, name: 'run', args: { text: 'rm x' }, origin: 'model', callId: 'c1', confirmer: person })).ok).toBe(true);
    expect(person.asked[0]?.effects).toEqual(['runs rm x', 'cannot be undone']);
    expect(confirmations(kernel, session)[0]).toEqual(['confirmation.requested', expect.objectContaining({ effects: ['runs rm x', 'cannot be undone'] })]);
  });

  it('still asks, without effects, when the preview throws', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', {
      ...run,
      preview: () => {
        throw new Error('broken preview');
      },
    });
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const person = answering(false);
    expect((await kernel.apply({ session, name: 'run', args: { text: 'rm x' }, origin: 'model', callId: 'c1', confirmer: person })).ok).toBe(false);
    expect(person.asked).toHaveLength(1);
    expect(person.asked[0]?.effects).toBeUndefined();
  });
});
