import { GUARD_SLOTS, TIERS, isEnvelopeError, type CheckStage, type GuardCall, type GuardStage, type IngressStage, type LogStage, type PluginDefinition, type ToolResult, type Verdict } from '@nodwyn/plugin-api';
import { EnvelopeSchema } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { echoPlugin } from '../echo-plugin.js';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '../start-test-kernel.js';
import { deepFreeze, hostileArgs, hostileResults } from './hostile-inputs.js';

/** How to run the guard-stage suite against one plugin. */
export interface GuardStageSuiteOptions extends Omit<TestKernelOptions, 'plugins'> {
  /** Plugins the stage's plugin requires, loaded beside it. */
  readonly with?: readonly PluginDefinition[];
  /** Calls the plugin's check stages must all allow (fields not given take the suite's defaults). */
  readonly allows?: readonly Partial<GuardCall>[];
  /** Calls at least one of its check stages must stop, with a deny or a question for a person. */
  readonly stops?: readonly Partial<GuardCall>[];
  /** Longest one stage may take to answer before the suite calls it stuck; 2 s by default. */
  readonly timeoutMs?: number;
}

/** The call a stage sees when a sample names only some fields; frozen, so a stage that edits it fails. */
export function sampleCall(fields: Partial<GuardCall> = {}): GuardCall {
  return deepFreeze({
    id: 'call_conformance',
    session: 'session_conformance',
    name: 'echo',
    args: { text: 'hello' },
    tier: 'read',
    visibility: 'model',
    owner: 'echo',
    egress: false,
    targets: [],
    origin: 'model',
    taint: [],
    ...fields,
  } as GuardCall);
}

const SAMPLE_TARGET: GuardCall['targets'][number] = { method: 'POST', url: 'https://api.example.test/v1/items', positions: [{ kind: 'body', name: '$.text', value: 'hello' }] };

async function within<T>(what: string, timeoutMs: number, work: () => T | Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), stuck]);
  } finally {
    clearTimeout(timer);
  }
}

function expectWellFormed(verdict: Verdict, stage: string): void {
  expect(['allow', 'deny', 'confirm'], `${stage} answers allow, deny or confirm`).toContain(verdict?.kind);
  if (verdict.kind === 'deny') expect(EnvelopeSchema.safeParse(verdict.envelope).success, `${stage}'s deny carries a valid envelope`).toBe(true);
  if (verdict.kind === 'confirm') {
    expect(verdict.reason.trim().length, `${stage}'s question says why`).toBeGreaterThan(0);
    if (verdict.otherwise) expect(EnvelopeSchema.safeParse(verdict.otherwise).success, `${stage}'s otherwise is a valid envelope`).toBe(true);
  }
}

/**
 * What every plugin that adds guard stages must do: register exactly the stages its manifest provides,
 * each in a slot plugins may use and with the method that slot calls; answer every call, however hostile
 * its arguments, with a well-formed verdict in time and the same verdict for the same call, without
 * throwing or editing the call; filter results and log drafts without throwing, keeping what they
 * belong to; and allow and stop the sample calls its author names.
 */
export function describeGuardStageConformance(plugin: PluginDefinition, options: GuardStageSuiteOptions = {}): void {
  const { with: beside = [], allows = [], stops = [], timeoutMs = 2000, ...kernelOptions } = options;
  const declared = plugin.manifest.provides.filter((p) => p.startsWith('guard-stage:')).map((p) => p.slice('guard-stage:'.length));
  const withStages = async (body: (stages: readonly GuardStage[], t: TestKernel) => Promise<void>): Promise<void> => {
    const t = await startTestKernel({ ...kernelOptions, plugins: [plugin, ...beside, echoPlugin()] });
    try {
      const mine = GUARD_SLOTS.flatMap((slot) => t.kernel.stages.of(slot).filter((s) => s.owner === plugin.manifest.name).map((s) => s.stage));
      await body(mine, t);
    } finally {
      await t.stop();
    }
  };
  const checks = (stages: readonly GuardStage[]) => stages.filter((s): s is CheckStage => s.slot !== 'ingress' && s.slot !== 'log');

  describe(`${plugin.manifest.name} conforms as a guard-stage plugin`, () => {
    it('registers exactly the stages it provides, each with the method its slot calls', () =>
      withStages(async (stages) => {
        expect(declared.length, 'a guard-stage plugin provides at least one guard-stage:<name>').toBeGreaterThan(0);
        expect(stages.map((s) => s.name).sort()).toEqual([...declared].sort());
        for (const stage of stages) {
          expect(stage.slot, stage.name).not.toBe('execute');
          const method = stage.slot === 'ingress' || stage.slot === 'log' ? 'filter' : 'check';
          expect(typeof (stage as unknown as Record<string, unknown>)[method], `${stage.name} at ${stage.slot} has ${method}()`).toBe('function');
        }
      }));

    it('answers every call, however hostile, with a well-formed verdict, in time, the same each time', () =>
      withStages(async (stages) => {
        for (const stage of checks(stages)) {
          for (const args of hostileArgs())
            for (const tier of TIERS)
              for (const origin of ['model', 'host'] as const) {
                const call = sampleCall({ args, tier, origin, egress: tier !== 'read', targets: tier === 'read' ? [] : [SAMPLE_TARGET] });
                const first = await within(`${stage.name}.check`, timeoutMs, () => stage.check(call));
                expectWellFormed(first, stage.name);
                const again = await within(`${stage.name}.check`, timeoutMs, () => stage.check(call));
                expect(again.kind, `${stage.name} gives the same call the same verdict`).toBe(first.kind);
              }
        }
      }), 60_000);

    it('filters results and log drafts without throwing, keeping what they belong to', () =>
      withStages(async (stages) => {
        for (const stage of stages.filter((s): s is IngressStage => s.slot === 'ingress'))
          for (const result of hostileResults()) {
            const filtered: ToolResult = await within(`${stage.name}.filter`, timeoutMs, () => stage.filter(sampleCall(), deepFreeze(result)));
            expect(typeof filtered.content, `${stage.name} returns a result with text content`).toBe('string');
          }
        for (const stage of stages.filter((s): s is LogStage => s.slot === 'log'))
          for (const result of hostileResults()) {
            const draft = deepFreeze({ session: 'session_conformance', type: 'tool.result', actor: 'kernel', payload: { content: result.content } });
            const filtered = stage.filter(draft);
            expect(filtered instanceof Promise, `${stage.name} filters the log synchronously`).toBe(false);
            expect([filtered.session, filtered.type, filtered.actor], `${stage.name} keeps the draft's session, type and actor`).toEqual([draft.session, draft.type, draft.actor]);
          }
      }), 60_000);

    it('allows the calls it should allow and stops the calls it should stop', () =>
      withStages(async (stages) => {
        for (const fields of allows)
          for (const stage of checks(stages)) {
            const verdict = await within(`${stage.name}.check`, timeoutMs, () => stage.check(sampleCall(fields)));
            expect(verdict.kind, `${stage.name} allows ${JSON.stringify(fields)}`).toBe('allow');
          }
        for (const fields of stops) {
          const verdicts = await Promise.all(checks(stages).map((stage) => within(`${stage.name}.check`, timeoutMs, () => stage.check(sampleCall(fields)))));
          expect(verdicts.some((v) => v.kind !== 'allow'), `some stage of ${plugin.manifest.name} stops ${JSON.stringify(fields)}`).toBe(true);
        }
      }));

    it('stops, through the real guard, an echo call with the arguments it should stop, as an envelope', () =>
      withStages(async (_stages, t) => {
        // Only samples that differ from an `echo` call by their arguments alone can be made through the guard.
        for (const fields of stops.filter((s) => Object.keys(s).every((key) => key === 'args'))) {
          const result = await t.apply('echo', fields.args ?? { text: 'hello' }).catch((error: unknown) => {
            if (isEnvelopeError(error)) return { ok: false as const, envelope: error.envelope, stage: 'thrown' };
            throw error;
          });
          expect(result.ok, `the guard stops ${JSON.stringify(fields.args)}`).toBe(false);
          if (!result.ok) expect(EnvelopeSchema.safeParse(result.envelope).success).toBe(true);
        }
      }));
  });
}
