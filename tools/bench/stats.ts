/** Percentile of sorted-on-demand samples (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** One row of the results table. */
export interface Row {
  readonly name: string;
  readonly value: string;
  readonly target: string;
  readonly ok: boolean | undefined;
  readonly note?: string;
}

/** Prints rows as a fixed-width table. */
export function printTable(rows: readonly Row[]): void {
  const cells = rows.map((r) => [r.name, r.value, r.target, r.ok === undefined ? '' : r.ok ? 'ok' : 'MISS', r.note ?? '']);
  const headers = ['benchmark', 'result', 'target', '', 'note'];
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

/** Times a synchronous or async function in microseconds. */
export async function timeUs(fn: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1000;
}
