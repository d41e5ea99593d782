import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createNodeRunner } from '../src/index.js';

/** The trivial capability. */
export const TRIVIAL_CAPABILITY = 'export default (a) => a.x + 1';

/** Wall times of one benchmark, in milliseconds. */
export interface NodeRunnerTimes {
  readonly samples: readonly number[];
  readonly p50: number;
  readonly p90: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * Runs the trivial capability through the Node runner `runs` times (after `warmup` unmeasured runs) and
 * times each `runner.run` end to end: temp files, a fresh `node` process with the permission model, the
 * harness, the call, the result, the kill and the cleanup. The runner is made with `networkCut` so the run
 * needs no grants; a run with a `net` grant costs the same.
 */
export async function benchNodeRunner(runs = 30, warmup = 3): Promise<NodeRunnerTimes> {
  const runner = createNodeRunner({ networkCut: true });
  const request = {
    session: 'bench',
    code: TRIVIAL_CAPABILITY,
    args: { x: 1 },
    grants: {},
    workspace: realpathSync(tmpdir()),
    signal: new AbortController().signal,
    apply: () => Promise.reject(new Error('the trivial capability uses no door')),
  };
  const samples: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const start = process.hrtime.bigint();
    const result = await runner.run(request);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (!result.ok || result.value !== 2) throw new Error(`the trivial capability failed: ${JSON.stringify(result)}`);
    if (i >= warmup) samples.push(ms);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples, p50: percentile(sorted, 50), p90: percentile(sorted, 90) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const times = await benchNodeRunner(Number(process.argv[2] ?? 30));
  console.log(`node runner, trivial capability: p50 ${times.p50.toFixed(1)} ms, p90 ${times.p90.toFixed(1)} ms over ${times.samples.length} runs`);
}
