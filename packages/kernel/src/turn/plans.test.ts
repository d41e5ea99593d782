import { afterEach, describe, expect, it } from 'vitest';
import type { Confirmer, LoopStrategy, ModelMessage, ModelProvider, ModelRequest, ModelStreamEvent, PrimitiveDefinition } from '@nodwyn/plugin-api';
import { echo, memoryKernel } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';

let kernel: Kernel;
afterEach(() => kernel?.close());

const publish: PrimitiveDefinition<{ text: string }> = { ...echo, name: 'publish', tier: 'irreversible', description: 'Publishes a release; cannot be undone.' };
const yes: Confirmer = { confirm: async () => true };

/** A provider that plays its turns in order and keeps every request's window. */
function sequence(turns: ((messages: readonly ModelMessage[]) => ModelStreamEvent[])[]): ModelProvider & { windows: (readonly ModelMessage[])[] } {
  const windows: (readonly ModelMessage[])[] = [];
  return {
    id: 'sequence',
    windows,
    async *stream(request: ModelRequest) {
      windows.push(request.messages);
      const turn = turns[windows.length - 1];
      if (!turn) throw new Error('no more turns');
      yield* turn(request.messages);
    },
  };
}
const publishCall = (id: string): ModelStreamEvent[] => [{ type: 'tool_call', call: { id, name: 'publish', args: { text: 'v1' } } }, { type: 'stop', reason: 'tool_use' }];
const say = (text: string): ModelStreamEvent[] => [{ type: 'text', text }, { type: 'stop', reason: 'end_turn' }];

/** Calls the model; on PLAN_REQUIRED asks for a plan, has the person confirm it, and goes on. */
const planningLoop: LoopStrategy = {
  id: 'planning',
  description: 'test loop with a plan flow',
  async run(floor) {
    for (;;) {
      const message = await floor.callModel();
      if (message.toolCalls.length === 0) return { answer: message.text };
      const results = await floor.runToolCalls(message);
      if (results.some((r) => r.envelope?.code === 'PLAN_REQUIRED')) {
        floor.plans.request('an irreversible tool call needs an approved plan');
        const draft = await floor.callModel();
        const approved = await floor.plans.confirm(draft.text);
        floor.plans.record({ plan: draft.text, approved, by: 'person', round: 1 });
        if (!approved) return { answer: 'no plan' };
      }
    }
  },
};

describe('the plan hard trigger', () => {
  it('denies an irreversible call without an approved plan, even with --yes, and runs it once a plan is approved', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', publish);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = sequence([() => publishCall('a'), () => say('1. publish v1'), () => publishCall('b'), () => say('published')]);
    const result = await kernel.run({ session, prompt: 'publish', provider, strategy: planningLoop, confirmer: yes });
    expect(result).toMatchObject({ reason: 'answer', answer: 'published' });
    const events = kernel.log.read(session);
    const outcomes = events.filter((e) => e.type.startsWith('tool.')).map((e) => [e.payload.call_id, e.type, (e.payload.envelope as { code?: string } | undefined)?.code]);
    expect(outcomes).toEqual([['a', 'tool.denied', 'PLAN_REQUIRED'], ['b', 'tool.completed', undefined]]);
    expect(events.find((e) => e.type === 'plan.approved')?.payload).toEqual({ plan: '1. publish v1', by: 'person', round: 1 });
    // The model saw the request for a plan and the approval as instructions in its window.
    expect(provider.windows[1]!.at(-1)).toMatchObject({ role: 'user', text: expect.stringContaining('A plan is required before acting') });
    expect(provider.windows[2]!.at(-1)).toMatchObject({ role: 'user', text: '[nodwyn] The plan was approved. Carry it out now.' });
  });

  it('keeps denying when nobody can approve the plan', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', publish);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = sequence([() => publishCall('a'), () => say('1. publish v1')]);
    const result = await kernel.run({ session, prompt: 'publish', provider, strategy: planningLoop });
    expect(result).toMatchObject({ reason: 'answer', answer: 'no plan' });
    expect(kernel.log.read(session).filter((e) => e.type === 'plan.revise')).toHaveLength(1);
  });

  it('applies to nested calls a model tool makes on its behalf', async () => {
    kernel = memoryKernel();
    kernel.primitives.register('t', publish);
    kernel.primitives.register('t', {
      ...echo,
      name: 'wrapper',
      handler: async (args, ctx) => {
        const inner = await ctx.apply('publish', args);
        return { content: inner.ok ? 'ran' : inner.envelope.code ?? '' };
      },
    } as PrimitiveDefinition<{ text: string }>);
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const provider = sequence([() => [{ type: 'tool_call', call: { id: 'w', name: 'wrapper', args: { text: 'v1' } } }, { type: 'stop', reason: 'tool_use' }], () => say('done')]);
    await kernel.run({ session, prompt: 'go', provider, strategy: planningLoop, confirmer: yes });
    const wrapper = kernel.log.read(session).find((e) => e.type === 'tool.completed' && e.payload.call_id === 'w');
    expect(wrapper?.payload.content).toBe('PLAN_REQUIRED');
  });
});
