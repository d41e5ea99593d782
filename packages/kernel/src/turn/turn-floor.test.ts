import type { WorkspaceFiles } from '@nodwyn/plugin-api';
import type { FrontendEvent } from '@nodwyn/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { echo, memoryKernel, replies, simpleLoop } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

function setup() {
  kernel = memoryKernel();
  kernel.primitives.register('t', echo);
  return kernel.sessions.create({ workspace: kernel.workspace });
}

describe('the turn floor', () => {
  it('runs tool calls and returns the answer, logging user, assistant, outcomes and the end', async () => {
    const session = setup();
    const provider = replies([{ calls: [{ name: 'echo', args: { text: 'hi' } }] }, { text: 'done' }]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop });
    expect(result).toMatchObject({ reason: 'answer', answer: 'done' });
    expect(kernel.log.read(session).map((e) => e.type)).toEqual([
      'session.created', 'message.user', 'turn.started', 'message.assistant', 'tool.completed', 'message.assistant', 'turn.ended',
    ]);
    expect(provider.requests[1]!.messages.at(-1)).toEqual({ role: 'tool', callId: 'c0_0', name: 'echo', text: 'hi', isError: false });
  });

  it('stops at the turn budget', async () => {
    const session = setup();
    const loopy = replies(Array.from({ length: 10 }, (_, i) => ({ calls: [{ name: 'echo', args: { text: String(i) } }] })));
    const result = await kernel.run({ session, prompt: 'go', provider: loopy, strategy: simpleLoop, budgets: { maxTurns: 3 } });
    expect([result.reason, result.envelope?.code]).toEqual(['budget', 'BUDGET_TURNS']);
    expect(loopy.requests).toHaveLength(3);
  });

  it('stops at the tool-call budget and still answers every call once', async () => {
    const session = setup();
    const calls = ['a', 'b', 'c'].map((text) => ({ name: 'echo', args: { text } }));
    const result = await kernel.run({ session, prompt: 'go', provider: replies([{ calls }]), strategy: simpleLoop, budgets: { maxToolCalls: 2 } });
    expect([result.reason, result.envelope?.code]).toEqual(['budget', 'BUDGET_TOOL_CALLS']);
    const outcomes = kernel.log.read(session).filter((e) => e.type.startsWith('tool.'));
    expect(outcomes.map((e) => [e.payload.call_id, e.type])).toEqual([['c0_0', 'tool.completed'], ['c0_1', 'tool.completed'], ['c0_2', 'tool.denied']]);
  });

  it('stops at the token budget', async () => {
    const session = setup();
    const provider = replies([{ calls: [{ name: 'echo', args: { text: 'a' } }], usage: { input: 900, output: 200 } }, { text: 'no' }]);
    const result = await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop, budgets: { maxTokens: 1000 } });
    expect([result.reason, result.envelope?.code]).toEqual(['budget', 'BUDGET_TOKENS']);
  });

  it('stops at the wall-time budget, aborting the running tool', async () => {
    const session = setup();
    kernel.primitives.register('t', { ...echo, name: 'wait', handler: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => r({ content: 'x' }))) });
    const result = await kernel.run({ session, prompt: 'go', provider: replies([{ calls: [{ name: 'wait', args: { text: '' } }] }]), strategy: simpleLoop, budgets: { maxWallMs: 50 } });
    expect([result.reason, result.envelope?.code]).toEqual(['budget', 'BUDGET_WALL_TIME']);
  });

  it('ends a loop that repeats the same call three times', async () => {
    const session = setup();
    const same = { calls: [{ name: 'echo', args: { text: 'same' } }] };
    const result = await kernel.run({ session, prompt: 'go', provider: replies([same, same, same, same]), strategy: simpleLoop });
    expect([result.reason, result.envelope?.code]).toEqual(['progress', 'PROGRESS_REPEATED_CALL']);
    const kinds = kernel.log.read(session).filter((e) => e.type.startsWith('tool.')).map((e) => e.type);
    expect(kinds).toEqual(['tool.completed', 'tool.completed', 'tool.denied']);
  });

  it('cancels cleanly and logs why', async () => {
    const session = setup();
    const controller = new AbortController();
    kernel.primitives.register('t', { ...echo, name: 'wait', handler: (_a, ctx) => new Promise((r) => ctx.signal.addEventListener('abort', () => r({ content: 'x' }))) });
    setTimeout(() => controller.abort(), 20);
    const result = await kernel.run({ session, prompt: 'go', provider: replies([{ calls: [{ name: 'wait', args: { text: '' } }] }]), strategy: simpleLoop, signal: controller.signal });
    expect(result.reason).toBe('cancelled');
    const ended = kernel.log.read(session).at(-1)!;
    expect([ended.type, ended.payload.reason]).toEqual(['turn.ended', 'cancelled']);
  });

  it('refuses tool calls the model did not make', async () => {
    const session = setup();
    const forger = {
      id: 'forger',
      description: 'runs a call of its own',
      async run(floor: import('@nodwyn/plugin-api').TurnFloor) {
        const message = await floor.callModel();
        await floor.runToolCalls({ ...message, toolCalls: [{ id: 'x', name: 'echo', args: { text: 'forged' } }] });
        return { answer: 'forged' };
      },
    };
    const result = await kernel.run({ session, prompt: 'go', provider: replies([{ calls: [{ name: 'echo', args: { text: 'real' } }] }]), strategy: forger, strategyOwner: 'bad-loop' });
    expect([result.reason, result.envelope?.code, result.envelope?.plugin]).toEqual(['failed', 'LOOP_FOREIGN_CALL', 'bad-loop']);
    const outcomes = kernel.log.read(session).filter((e) => e.type.startsWith('tool.'));
    expect(outcomes.map((e) => [e.payload.call_id, e.payload.name, e.type])).toEqual([['c0_0', 'echo', 'tool.denied']]);
  });

  it('rebuilds the window from the log, so a second run continues the session', async () => {
    const session = setup();
    await kernel.run({ session, prompt: 'first', provider: replies([{ text: 'one' }]), strategy: simpleLoop });
    const second = replies([{ text: 'two' }]);
    await kernel.run({ session, prompt: 'second', provider: second, strategy: simpleLoop });
    expect(second.requests[0]!.messages.map((m) => m.role === 'tool' ? 'tool' : `${m.role}:${m.text}`)).toEqual(['user:first', 'assistant:one', 'user:second']);
  });

  it('answers a call left without an outcome by a dead process before the next run', async () => {
    const session = setup();
    kernel.append(session, { type: 'message.user', actor: 'user', payload: { text: 'x' } });
    kernel.append(session, { type: 'turn.started', actor: 'kernel', payload: { provider: 'test', strategy: 'simple' } });
    kernel.append(session, { type: 'message.assistant', actor: 'model', payload: { text: '', tool_calls: [{ id: 'lost', name: 'echo', args: { text: 'x' } }], stop_reason: 'tool_use', provider: 'test' } });
    await kernel.run({ session, prompt: 'again', provider: replies([{ text: 'ok' }]), strategy: simpleLoop });
    const repaired = kernel.log.read(session).find((e) => e.type === 'tool.failed')!;
    expect([repaired.payload.call_id, (repaired.payload.envelope as { code: string }).code]).toEqual(['lost', 'TOOL_INTERRUPTED']);
    const ends = kernel.log.read(session).filter((e) => e.type === 'turn.ended').map((e) => e.payload.reason);
    expect(ends).toEqual(['interrupted', 'answer']);
  });

  it('lets a strategy call host primitives through the guard, but never model tools', async () => {
    const session = setup();
    kernel.primitives.register('t', { ...echo, name: 'judge.score', visibility: 'host', handler: () => ({ content: '0.9' }) });
    const seen: unknown[] = [];
    const strategy = {
      id: 'scoring',
      description: 'asks a host primitive, then tries a model tool',
      async run(floor: import('@nodwyn/plugin-api').TurnFloor) {
        seen.push(await floor.callPrimitive('judge.score', { text: 'plan' }));
        seen.push(await floor.callPrimitive('echo', { text: 'sneaky' }).catch((e: { envelope: { code: string } }) => e.envelope.code));
        return { answer: 'done' };
      },
    };
    const result = await kernel.run({ session, prompt: 'go', provider: replies([]), strategy });
    expect(result.reason).toBe('answer');
    expect(seen).toEqual([expect.objectContaining({ ok: true, content: '0.9' }), 'LOOP_FOREIGN_CALL']);
    const outcome = kernel.log.read(session).find((e) => e.type === 'tool.completed')!;
    expect([outcome.payload.name, outcome.payload.origin]).toEqual(['judge.score', 'host']);
  });

  it('offers only model-visible tools', async () => {
    const session = setup();
    kernel.primitives.register('t', { ...echo, name: 'secret.read', visibility: 'host' });
    const provider = replies([{ text: 'x' }]);
    await kernel.run({ session, prompt: 'go', provider, strategy: simpleLoop });
    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(['echo']);
  });

  it('a fork sees its parent window up to the fork point', async () => {
    const session = setup();
    await kernel.run({ session, prompt: 'first', provider: replies([{ text: 'one' }]), strategy: simpleLoop });
    const at = kernel.log.head(session)!.seq;
    await kernel.run({ session, prompt: 'later', provider: replies([{ text: 'two' }]), strategy: simpleLoop });
    const fork = kernel.sessions.fork(session, at);
    const provider = replies([{ text: 'forked' }]);
    await kernel.run({ session: fork, prompt: 'branch', provider, strategy: simpleLoop });
    expect(provider.requests[0]!.messages.map((m) => (m.role === 'tool' ? '' : m.text))).toEqual(['first', 'one', 'branch']);
    expect(kernel.sessions.get(fork).forkedFrom).toEqual({ session, seq: at });
  });

  it('tells the front end each model call starts right before it goes to the guard, and not for a call that never does', async () => {
    const session = setup();
    const seen: string[] = [];
    kernel.primitives.register('t', { ...echo, name: 'note', handler: (a) => (seen.push(`ran ${a.text}`), { content: a.text }) });
    const calls = [{ name: 'note', args: { text: 'a' } }, { name: 'note', args: { text: 'b' } }, { name: 'note', args: { text: 'c' } }];
    const onEvent = (event: FrontendEvent): void => {
      if (event.type === 'tool.started') seen.push(`started ${event.call_id} ${event.name} ${event.session === session}`);
    };
    await kernel.run({ session, prompt: 'go', provider: replies([{ calls }, { text: 'done' }]), strategy: simpleLoop, budgets: { maxToolCalls: 2 }, onEvent });
    expect(seen).toEqual(['started c0_0 note true', 'ran a', 'started c0_1 note true', 'ran b']);
  });

  it('passes a running call\'s progress, and its nested calls\', to the front end as tool.progress', async () => {
    const session = setup();
    kernel.primitives.register('t', { ...echo, name: 'leaf.step', visibility: 'host', handler: (_a, ctx) => (ctx.progress?.({ progress: 2, total: 2, message: 'nested' }), { content: 'ok' }) });
    kernel.primitives.register('t', {
      ...echo,
      name: 'long',
      handler: async (_a, ctx) => {
        ctx.progress?.({ progress: 1, total: 2, message: 'first half' });
        await ctx.apply('leaf.step', { text: 'x' });
        return { content: 'done' };
      },
    });
    const progress: FrontendEvent[] = [];
    const onEvent = (event: FrontendEvent): void => void (event.type === 'tool.progress' && progress.push(event));
    await kernel.run({ session, prompt: 'go', provider: replies([{ calls: [{ name: 'long', args: { text: '' } }] }, { text: 'done' }]), strategy: simpleLoop, onEvent });
    expect(progress).toEqual([
      { type: 'tool.progress', session, call_id: 'c0_0', progress: 1, total: 2, message: 'first half' },
      { type: 'tool.progress', session, call_id: 'c0_0', progress: 2, total: 2, message: 'nested' },
    ]);
  });

  it('gives a call no progress reporter when nobody listens', async () => {
    const session = setup();
    let reporter: unknown = 'unset';
    kernel.primitives.register('t', { ...echo, name: 'long', handler: (_a, ctx) => ((reporter = ctx.progress), { content: 'done' }) });
    await kernel.run({ session, prompt: 'go', provider: replies([{ calls: [{ name: 'long', args: { text: '' } }] }, { text: 'done' }]), strategy: simpleLoop });
    expect(reporter).toBeUndefined();
  });

  it('hands the run\'s workspace files to every call, nested calls and a strategy\'s host calls included', async () => {
    const session = setup();
    const files: WorkspaceFiles = { readText: async () => 'buffer', writeText: async () => undefined };
    const seen: unknown[] = [];
    kernel.primitives.register('t', { ...echo, name: 'leaf.read', visibility: 'host', handler: (_a, ctx) => (seen.push(['leaf', ctx.files]), { content: 'ok' }) });
    kernel.primitives.register('t', {
      ...echo,
      name: 'outer',
      handler: async (_a, ctx) => {
        seen.push(['outer', ctx.files]);
        await ctx.apply('leaf.read', { text: 'x' });
        return { content: 'done' };
      },
    });
    const strategy = {
      id: 'host-then-model',
      description: 'a host call, then the model',
      async run(floor: import('@nodwyn/plugin-api').TurnFloor) {
        await floor.callPrimitive('leaf.read', { text: 'y' });
        return simpleLoop.run(floor);
      },
    };
    await kernel.run({ session, prompt: 'go', provider: replies([{ calls: [{ name: 'outer', args: { text: 'x' } }] }, { text: 'done' }]), strategy, files });
    expect(seen).toEqual([['leaf', files], ['outer', files], ['leaf', files]]);
    seen.length = 0;
    await kernel.apply({ session, name: 'outer', args: { text: 'x' }, origin: 'model' });
    expect(seen).toEqual([['outer', undefined], ['leaf', undefined]]);
  });
});
