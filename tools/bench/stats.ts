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

/** What a paired overhead measure is checked against. */
export interface OverheadRow {
  readonly name: string;
  /** The goal in ms, and its text for the table. */
  readonly goalMs: number;
  readonly target: string;
  readonly runs: number;
  /** Leading runs not counted (warm-up). */
  readonly warmup: number;
}

/**
 * A row of p50 overhead: each run times `bare` then `guarded` back to back (so both see the same machine
 * state), the first `warmup` runs are dropped, and the row compares the two medians in ms.
 */
export async function p50Overhead(row: OverheadRow, bare: (i: number) => Promise<unknown>, guarded: (i: number) => Promise<unknown>): Promise<Row> {
  const bareMs: number[] = [];
  const guardedMs: number[] = [];
  for (let i = 0; i < row.runs; i++) {
    let start = performance.now();
    await bare(i);
    const b = performance.now() - start;
    start = performance.now();
    await guarded(i);
    const g = performance.now() - start;
    if (i >= row.warmup) {
      bareMs.push(b);
      guardedMs.push(g);
    }
  }
  const overhead = percentile(guardedMs, 50) - percentile(bareMs, 50);
  return {
    name: row.name,
    value: `${overhead.toFixed(2)} ms`,
    target: row.target,
    ok: overhead <= row.goalMs,
    note: `p50 guarded ${percentile(guardedMs, 50).toFixed(2)} ms, bare ${percentile(bareMs, 50).toFixed(2)} ms`,
  };
}
