import { type PrimitiveCallContext } from '@nodwyn/plugin-api';
import { sandboxRunnerToken, type SandboxRunner } from '@nodwyn/plugin-api/sandbox';
import type { QuickjsRunner } from '@nodwyn/plugin-sandbox-quickjs';
import type { TestKernel } from '@nodwyn/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchQuickjs } from '../../sandbox-quickjs/src/bench.js';
import { normalGrants } from '../src/capability.js';
import { stripTypes } from '../src/compile.js';
import { readConfig } from '../src/config.js';
import { PLUGIN_NAME } from '../src/errors.js';
import { Registry } from '../src/registry.js';
import { admissionProof } from '../src/admission-proof.js';
import { runInSandbox, type RunnerLookup } from '../src/run-version.js';
import { SLUGIFY, startCapabilityKernel } from '../test/kernel.js';

/** Admission figures in milliseconds; the parts are each timed on their own, so they need not add up to the total. */
export interface AdmissionTimes {
  readonly samples: readonly number[];
  readonly p50: number;
  readonly p99: number;
  /** esbuild: the capability's code and the `check` example's predicate, two transforms. */
  readonly esbuildP50: number;
  /** The three sandbox runs of SLUGIFY's examples (code, code, predicate). */
  readonly examplesP50: number;
  /** Registry.admit: the count check, two rows and the admitted event in one SQLite transaction. */
  readonly transactionP50: number;
}

/** Execution figures in milliseconds: a trivial capability through the guard, and the bare runner. */
export interface ExecutionTimes {
  readonly calls: number;
  readonly ownToolP50: number;
  readonly executeCapabilityP50: number;
  readonly rawQuickjsWarmP50: number;
}

/** How much to measure, and the bare runner's warm p50 when the caller already measured it. */
export interface CapabilityBenchOptions {
  readonly admissions?: number;
  readonly calls?: number;
  readonly quickjsWarmP50Ms?: number;
}

const WARMUP = 5;
/**
 * Idle time before each timed admission, standing in for the model's turn between calls: the QuickJS pool
 * refills itself on the event loop after each run, and a real admission finds it refilled. Calling warm()
 * instead would race the refill the last admission scheduled and sometimes leave three sandboxes, which
 * hides the build the third example run really pays for.
 */
const IDLE_MS = 100;

const idle = () => new Promise<void>((resolve) => setTimeout(resolve, IDLE_MS));

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

function quickjsOf(k: TestKernel): QuickjsRunner {
  const runner = k.host.service<SandboxRunner>(sandboxRunnerToken('quickjs'));
  if (!runner || !('warm' in runner)) throw new Error('the QuickJS runner is not loaded');
  return runner as QuickjsRunner;
}

function callContext(k: TestKernel, session: string): PrimitiveCallContext {
  return {
    session,
    callId: 'bench',
    workspace: k.workspace,
    signal: new AbortController().signal,
    outputCap: 64 * 1024,
    taint: [],
    apply: (name, args) => k.apply(name, args, { session, origin: 'host' }),
  };
}

/** One real admission through the guard, as the model makes it. */
async function admit(k: TestKernel, session: string, name: string): Promise<void> {
  const result = await k.apply('register_capability', { ...SLUGIFY, name }, { session });
  if (!result.ok) throw new Error(`admission of ${name} failed: ${JSON.stringify(result.envelope)}`);
}

/** The parts of one admission, each on its own, the way Capabilities.register calls them. */
async function admissionParts(k: TestKernel, session: string, name: string): Promise<{ esbuild: number; examples: number; transaction: number }> {
  const [byExpect, byCheck] = SLUGIFY.examples as [{ args: { text: string } }, { args: { text: string }; check: string }];
  let compiled = '';
  let predicate = '';
  const esbuild = await timeMs(async () => {
    compiled = await stripTypes(name, SLUGIFY.code);
    // The predicate wrapper is examples.ts's, character for character.
    predicate = await stripTypes(`${name}.examples.1.check`, `const check = (${byCheck.check});\nexport default (a) => check(a.output, a.args);\n`);
  });
  const config = readConfig({});
  const limits = config.exampleLimits;
  const call = callContext(k, session);
  const lookup: RunnerLookup = (id) => k.host.service(sandboxRunnerToken(id));
  const run = (code: string, args: unknown) => runInSandbox(lookup, { runner: 'quickjs', code, args, grants: {}, limits }, call);
  const examples = await timeMs(async () => {
    const first = await run(compiled, byExpect.args);
    const second = await run(compiled, byCheck.args);
    const verdict = second.ok ? await run(predicate, { output: second.value, args: byCheck.args }) : second;
    if (!first.ok || first.value !== 'hello-world' || !verdict.ok || verdict.value !== true) throw new Error('an example failed in the parts run');
  });
  const registry = new Registry(k.kernel.log.store(PLUGIN_NAME), admissionProof(k.kernel.reader));
  const draft = { ...SLUGIFY, name, grants: normalGrants({}), runner: 'quickjs' as const, status: 'active' as const, compiled, author: 'unknown model', session };
  const transaction = await timeMs(async () => {
    registry.admit(
      draft,
      (type, payload) => k.kernel.append(session, { type, actor: `plugin:${PLUGIN_NAME}`, payload }),
      // Capabilities.register's count check: a new name scans every active capability.
      (r) => void (r.runnable(name) ?? r.active().length),
    );
  });
  return { esbuild, examples, transaction };
}

/**
 * Admits `count` capabilities with SLUGIFY's code and two examples, each under a new name so each is a
 * real admission (version 1, a new registry row). Then times the parts, one admission's worth at a time,
 * on a second kernel whose registry grows alike; the two phases do not interleave, so one kernel's pool
 * refill never lands in the other's timing.
 */
async function benchAdmission(k: TestKernel, parts: TestKernel, count: number): Promise<AdmissionTimes> {
  const session = k.session();
  const totals: number[] = [];
  for (let i = 0; i < WARMUP + count; i++) {
    await idle();
    const total = await timeMs(() => admit(k, session, `slug_${i}`));
    if (i >= WARMUP) totals.push(total);
  }
  const partsSession = parts.session();
  const split = { esbuild: [] as number[], examples: [] as number[], transaction: [] as number[] };
  for (let i = 0; i < WARMUP + count; i++) {
    await idle();
    const part = await admissionParts(parts, partsSession, `slug_${i}`);
    if (i < WARMUP) continue;
    split.esbuild.push(part.esbuild);
    split.examples.push(part.examples);
    split.transaction.push(part.transaction);
  }
  return {
    samples: totals,
    p50: percentile(totals, 50),
    p99: percentile(totals, 99),
    esbuildP50: percentile(split.esbuild, 50),
    examplesP50: percentile(split.examples, 50),
    transactionP50: percentile(split.transaction, 50),
  };
}

async function slug(pending: Promise<{ ok: boolean; content?: string }>, expected: string): Promise<void> {
  const result = await pending;
  if (!result.ok || result.content !== expected) throw new Error(`slugify answered ${JSON.stringify(result)}, not ${expected}`);
}

/**
 * A trivial capability through the whole guard (resolve, preflight, policy, execute, ingress, the outcome
 * event on the WAL file), as its own tool and through execute_capability, interleaved so a noisy moment
 * hits both. As benchQuickjs does, the pool is refilled before each timed call, so the difference to its
 * warm p50 is the guard's and the plugin's share.
 */
async function benchExecution(k: TestKernel, calls: number): Promise<{ ownTool: number[]; executeCapability: number[] }> {
  const session = k.session();
  const runner = quickjsOf(k);
  const ownTool: number[] = [];
  const executeCapability: number[] = [];
  for (let i = 0; i < WARMUP * 10 + calls; i++) {
    await runner.warm();
    const own = await timeMs(() => slug(k.apply('slugify', { text: `Own Tool ${i}` }, { session }), `own-tool-${i}`));
    await runner.warm();
    const via = await timeMs(() => slug(k.apply('execute_capability', { name: 'slugify', args: { text: `By Name ${i}` } }, { session }), `by-name-${i}`));
    if (i < WARMUP * 10) continue;
    ownTool.push(own);
    executeCapability.push(via);
  }
  return { ownTool, executeCapability };
}

/**
 * Capability admission (register_capability through the guard, p50 and p99, and its parts) and execution
 * of a trivial capability through the guard (as its own tool and through execute_capability, p50) on the
 * real kernel and plugins of test/kernel.ts, with the log in a file so each commit is real.
 */
export async function benchCapabilities(options: CapabilityBenchOptions = {}): Promise<{ admission: AdmissionTimes; execution: ExecutionTimes }> {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-caps-bench-'));
  const kernels: TestKernel[] = [];
  try {
    const k = await startCapabilityKernel({ dbPath: join(dir, 'admission.db') });
    kernels.push(k);
    const parts = await startCapabilityKernel({ dbPath: join(dir, 'parts.db') });
    kernels.push(parts);
    const admission = await benchAdmission(k, parts, options.admissions ?? 50);
    await admit(k, k.session(), SLUGIFY.name);
    const calls = options.calls ?? 500;
    const { ownTool, executeCapability } = await benchExecution(k, calls);
    const rawQuickjsWarmP50 = options.quickjsWarmP50Ms ?? (await benchQuickjs()).warmP50Ms;
    return {
      admission,
      execution: { calls, ownToolP50: percentile(ownTool, 50), executeCapabilityP50: percentile(executeCapability, 50), rawQuickjsWarmP50 },
    };
  } finally {
    for (const k of kernels) await k.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const home = mkdtempSync(join(tmpdir(), 'nodwyn-caps-home-'));
  process.env.NODWYN_HOME = home;
  try {
    const { admission: a, execution: e } = await benchCapabilities();
    const ms = (n: number) => `${n.toFixed(2)} ms`;
    console.log(`admission: p50 ${ms(a.p50)}, p99 ${ms(a.p99)} over ${a.samples.length}`);
    console.log(`  parts (p50, each alone): esbuild ×2 ${ms(a.esbuildP50)}, examples (3 runs) ${ms(a.examplesP50)}, transaction ${ms(a.transactionP50)}`);
    console.log(`execution over ${e.calls}: own tool ${ms(e.ownToolP50)}, execute_capability ${ms(e.executeCapabilityP50)}, bare QuickJS warm ${ms(e.rawQuickjsWarmP50)}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
