import type { SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { tmpdir } from 'node:os';
import { createQuickjsRunner, type QuickjsRunner } from './quickjs-runner.js';

const TRIVIAL = 'export default (a) => a.x + 1';

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function trivialRequest(): SandboxRunRequest {
  return {
    session: 'bench',
    code: TRIVIAL,
    args: { x: 41 },
    grants: {},
    workspace: tmpdir(),
    signal: new AbortController().signal,
    apply: () => Promise.reject(new Error('the trivial capability calls no door')),
  };
}

async function timeRun(runner: QuickjsRunner): Promise<number> {
  const started = performance.now();
  const result = await runner.run(trivialRequest());
  const elapsed = performance.now() - started;
  if (!result.ok || result.value !== 42) throw new Error(`the trivial capability failed: ${JSON.stringify(result)}`);
  return elapsed;
}

/**
 * p50 of running `export default (a) => a.x + 1`: warm, with a pooled sandbox ready (the pool is refilled
 * between timed runs, as the event loop does between real calls), and cold, building the sandbox (engine
 * instance, runtime, prelude) inside the timed run. Both exclude compiling the WebAssembly module, which
 * happens once per process.
 */
export async function benchQuickjs(runs = 200): Promise<{ warmP50Ms: number; coldP50Ms: number }> {
  const warm = createQuickjsRunner({ poolSize: 1 });
  const cold = createQuickjsRunner({ poolSize: 0 });
  await warm.warm();
  await timeRun(cold);
  const warmSamples: number[] = [];
  const coldSamples: number[] = [];
  for (let i = 0; i < runs; i++) {
    await warm.warm();
    warmSamples.push(await timeRun(warm));
    coldSamples.push(await timeRun(cold));
  }
  return { warmP50Ms: p50(warmSamples), coldP50Ms: p50(coldSamples) };
}
