import { benchDeno } from '../../plugins/sandbox-deno/src/bench.js';
import { benchNodeRunner } from '../../plugins/sandbox-node/bench/node-runner-bench.js';
import { benchQuickjs } from '../../plugins/sandbox-quickjs/src/bench.js';
import { benchCapabilityRows } from './capability-rows.js';
import type { Row } from './stats.js';

/**
 * Issue 5's runner figures: a trivial capability on each runner, next to Tendril's fresh `deno run` per call;
 * then capability admission and the same capability through the guard, next to the bare QuickJS figure.
 */
export async function benchSandboxes(): Promise<Row[]> {
  const quickjs = await benchQuickjs();
  const deno = await benchDeno();
  const node = await benchNodeRunner();
  const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
  const versus = (n: number) => `${(deno.tendrilP50Ms / n).toFixed(1)}× Tendril's way`;
  return [
    { name: 'trivial capability, QuickJS warm, p50', value: ms(quickjs.warmP50Ms), target: '≤ 1 ms', ok: quickjs.warmP50Ms <= 1, note: versus(quickjs.warmP50Ms) },
    { name: 'trivial capability, QuickJS cold, p50', value: ms(quickjs.coldP50Ms), target: '', ok: undefined, note: versus(quickjs.coldP50Ms) },
    { name: 'trivial capability, Deno runner, p50', value: ms(deno.denoP50Ms), target: '', ok: undefined, note: versus(deno.denoP50Ms) },
    { name: 'trivial capability, Node runner, p50', value: ms(node.p50), target: '', ok: undefined, note: versus(node.p50) },
    { name: "Tendril's way: fresh deno run per call, p50", value: ms(deno.tendrilP50Ms), target: '', ok: undefined, note: 'baseline' },
    ...(await benchCapabilityRows(quickjs.warmP50Ms)),
  ];
}
