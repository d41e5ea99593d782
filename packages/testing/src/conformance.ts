import { MODEL_NAME, HOST_NAME, TIERS, type ModelProvider, type ModelStreamEvent, type PluginDefinition } from '@nodwyn/plugin-api';
import { retryBudget } from '@nodwyn/plugin-api/transport';
import { EnvelopeSchema } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { echoPlugin } from './echo-plugin.js';
import { listProvider } from './list-provider.js';
import { startTestKernel, type TestKernelOptions } from './start-test-kernel.js';

/**
 * What every plugin that contributes primitives must do: load on the real host, register exactly what it
 * provides with valid names, tiers, descriptions and object input schemas, and answer bad arguments with
 * an envelope through the guard instead of throwing.
 */
export function describePrimitivePluginConformance(plugin: PluginDefinition, options: Omit<TestKernelOptions, 'plugins'> = {}): void {
  describe(`${plugin.manifest.name} conforms as a primitive plugin`, () => {
    it('registers exactly the primitives it provides, well formed', async () => {
      const t = await startTestKernel({ ...options, plugins: [plugin] });
      try {
        const mine = t.kernel.primitives.list().filter((p) => p.owner === plugin.manifest.name);
        const declared = plugin.manifest.provides.filter((p) => p.startsWith('primitive:')).map((p) => p.slice('primitive:'.length));
        expect(mine.map((p) => p.name).sort()).toEqual([...declared].sort());
        for (const p of mine) {
          expect(p.visibility === 'model' ? MODEL_NAME.test(p.name) : HOST_NAME.test(p.name)).toBe(true);
          expect(TIERS).toContain(p.tier);
          expect(p.description.length).toBeGreaterThan(10);
          expect(p.inputSchema.type).toBe('object');
        }
      } finally {
        await t.stop();
      }
    });

    it('answers malformed arguments with a VALIDATION_FAILED envelope naming a JSON path', async () => {
      const t = await startTestKernel({ ...options, plugins: [plugin] });
      try {
        for (const p of t.kernel.primitives.list().filter((x) => x.owner === plugin.manifest.name)) {
          const result = await t.apply(p.name, { __not_an_argument__: [1, 2, 3] }, { origin: p.visibility === 'model' ? 'model' : 'host' });
          expect(result.ok, p.name).toBe(false);
          if (!result.ok) {
            expect(EnvelopeSchema.safeParse(result.envelope).success).toBe(true);
            expect(result.envelope.category).toBe('VALIDATION_FAILED');
            expect(result.envelope.failed_parameter).toMatch(/^\$/);
          }
        }
      } finally {
        await t.stop();
      }
    });
  });
}

/** Collects a provider's stream, or the envelope it failed with. */
export async function collectStream(provider: ModelProvider, signal: AbortSignal = new AbortController().signal): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  const request = { session: 'conformance', messages: [{ role: 'user' as const, text: 'hello' }], tools: [], fetch: globalThis.fetch.bind(globalThis), retries: retryBudget(3) };
  for await (const event of provider.stream(request, signal)) events.push(event);
  return events;
}

/**
 * What every model provider must do: stream events that end in exactly one `stop`, report usage with
 * non-negative integers, and fail a cancelled call with a CANCELLED envelope.
 */
export function describeProviderConformance(name: string, create: () => Promise<ModelProvider> | ModelProvider): void {
  describe(`${name} conforms as a provider`, () => {
    it('ends a stream with exactly one stop, last', async () => {
      const events = await collectStream(await create());
      expect(events.filter((e) => e.type === 'stop')).toHaveLength(1);
      expect(events.at(-1)?.type).toBe('stop');
      for (const e of events) if (e.type === 'usage') expect(e.usage.input).toBeGreaterThanOrEqual(0);
    });

    it('fails a cancelled call with a CANCELLED envelope', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await collectStream(await create(), controller.signal).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((error as { envelope?: { category?: string } } | undefined)?.envelope?.category).toBe('CANCELLED');
    });
  });
}

/**
 * What every loop strategy must do on the real turn floor: return the model's answer, run the model's
 * tool calls (each answered exactly once in the log), and let the floor's stops end the run.
 */
export function describeLoopConformance(plugin: PluginDefinition, strategyId: string): void {
  describe(`${plugin.manifest.name} conforms as a loop strategy`, () => {
    it('answers, and gives every tool call exactly one logged result', async () => {
      const t = await startTestKernel({ plugins: [plugin, echoPlugin()] });
      try {
        const provider = listProvider([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }, { name: 'echo', args: { text: 'b' } }] }, { text: 'done' }]);
        const result = await t.run('go', { provider, loop: t.kernel.loops.get(strategyId).item });
        expect(result).toMatchObject({ reason: 'answer', answer: 'done' });
        const outcomes = t.events(result.session).filter((e) => e.type.startsWith('tool.'));
        expect(outcomes.map((e) => e.payload.call_id)).toEqual(['call_0_0', 'call_0_1']);
      } finally {
        await t.stop();
      }
    });

    it('lets the floor stop the run instead of swallowing the stop', async () => {
      const t = await startTestKernel({ plugins: [plugin, echoPlugin()] });
      try {
        const provider = listProvider([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }, { name: 'echo', args: { text: 'b' } }] }, { text: 'never' }]);
        const result = await t.run('go', { provider, loop: t.kernel.loops.get(strategyId).item, budgets: { maxToolCalls: 1 } });
        expect([result.reason, result.envelope?.code]).toEqual(['budget', 'BUDGET_TOOL_CALLS']);
      } finally {
        await t.stop();
      }
    });
  });
}
