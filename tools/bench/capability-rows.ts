import { benchCapabilities } from '../../plugins/capabilities/bench/capability-bench.js';
import type { Row } from './stats.js';

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

/**
 * Capability admission and a trivial capability through the guard, on the real kernel and plugins with
 * the log in a file. `quickjsWarmP50Ms` is the bare runner's warm p50 from the same process, so the guard's
 * share shows as a ratio.
 */
export async function benchCapabilityRows(quickjsWarmP50Ms: number): Promise<Row[]> {
  const { admission: a, execution: e } = await benchCapabilities({ quickjsWarmP50Ms });
  const versus = (n: number) => `${(n / e.rawQuickjsWarmP50).toFixed(1)}× bare QuickJS warm; ${e.calls} calls, log on WAL file`;
  return [
    {
      name: 'capability admission, 2 examples, p50',
      value: ms(a.p50),
      target: '≤ 50 ms',
      ok: a.p50 <= 50,
      note: `p99 ${ms(a.p99)} over ${a.samples.length}; parts alone, p50: esbuild ×2 ${ms(a.esbuildP50)}, 3 example runs ${ms(a.examplesP50)}, transaction ${ms(a.transactionP50)}`,
    },
    { name: 'trivial capability via the guard, own tool, p50', value: ms(e.ownToolP50), target: '', ok: undefined, note: versus(e.ownToolP50) },
    { name: 'trivial capability via execute_capability, p50', value: ms(e.executeCapabilityP50), target: '', ok: undefined, note: versus(e.executeCapabilityP50) },
  ];
}
