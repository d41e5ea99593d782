import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogEvent } from '@nodwyn/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempLog, type TempLog } from './helpers.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(HERE, 'fixtures', 'append-loop.ts');
const KERNEL_DIR = path.resolve(HERE, '..', '..');

/** A running append-loop child and the batches it said were committed. */
interface Writer {
  readonly child: ChildProcess;
  readonly committed: Map<string, number>;
  readonly ready: Promise<void>;
  readonly closed: Promise<void>;
}

function startWriter(t: TempLog, session: string, limit: number | 'forever', seed: number): Writer {
  const child = spawn(process.execPath, ['--conditions=@nodwyn/source', '--import', 'tsx', FIXTURE, t.file, t.keyPath, session, String(limit), String(seed)], {
    cwd: KERNEL_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const committed = new Map<string, number>();
  let stderr = '';
  let pending = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === 'READY') markReady();
      const [tag, batch, size] = line.split(' ');
      if (tag === 'C' && batch && size) committed.set(batch, Number(size));
    }
  });
  // 'close' fires after stdout is drained, so every line the child wrote before dying has been read.
  const closed = new Promise<void>((resolve, reject) => {
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL' || code === 0) resolve();
      else reject(new Error(`append-loop exited with ${code ?? signal}: ${stderr}`));
    });
  });
  void closed.catch(() => markReady());
  return { child, committed, ready, closed };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks that every batch in the log is whole and contiguous, and that every committed one survived. */
function checkBatches(events: readonly LogEvent[], committed: ReadonlyMap<string, number>): number {
  const batches = new Map<string, LogEvent[]>();
  for (const event of events) {
    const batch = String(event.payload.batch);
    batches.set(batch, [...(batches.get(batch) ?? []), event]);
  }
  for (const [batch, members] of batches) {
    const size = Number(members[0]?.payload.size);
    expect(members.map((e) => e.payload.index), `batch ${batch} is torn`).toEqual(Array.from({ length: size }, (_, i) => i));
    expect(members.map((e) => e.seq - (members[0]?.seq ?? 0)), `batch ${batch} is not contiguous`).toEqual(Array.from({ length: size }, (_, i) => i));
  }
  for (const [batch, size] of committed) expect(batches.get(batch)?.length, `committed batch ${batch} was lost`).toBe(size);
  return batches.size;
}

describe('crash safety (child processes killed with SIGKILL)', () => {
  let t: TempLog;
  beforeEach(() => {
    t = tempLog('nodwyn-crash-');
  });
  afterEach(() => t.cleanup());

  it('leaves a log that verifies, with no torn batch and no lost commit, after 20 kills at random moments', async () => {
    const committed = new Map<string, number>();
    let killedMidRun = 0;
    for (let round = 0; round < 20; round++) {
      // Odd rounds run two writers on the same session, so some kills land while the other holds the lock.
      const writers = [startWriter(t, 's', 'forever', round * 2 + 1), ...(round % 2 === 1 ? [startWriter(t, 's', 'forever', round * 2 + 2)] : [])];
      for (const writer of writers) {
        await writer.ready;
        await sleep(Math.floor(Math.random() * 120));
        writer.child.kill('SIGKILL');
      }
      await Promise.all(writers.map((w) => w.closed));
      for (const writer of writers) {
        if (writer.committed.size > 0) killedMidRun += 1;
        for (const [batch, size] of writer.committed) committed.set(batch, size);
      }
      const log = t.open();
      try {
        expect(log.recovery, `round ${round}`).toEqual([]);
        expect(log.verify(), `round ${round}`).toMatchObject({ ok: true });
        checkBatches(log.read('s'), committed);
      } finally {
        log.close();
      }
    }
    // The kills must have hit writers that were appending, or the test proves nothing.
    expect(killedMidRun).toBeGreaterThan(10);
    expect(committed.size).toBeGreaterThan(20);
  }, 240_000);

  it('lets two processes append to one session at once: one contiguous chain, every batch whole', async () => {
    const writers = [startWriter(t, 's', 20_000, 11), startWriter(t, 's', 20_000, 12)];
    await Promise.all(writers.map((w) => w.closed));
    const committed = new Map([...(writers[0]?.committed ?? []), ...(writers[1]?.committed ?? [])]);
    const total = [...committed.values()].reduce((a, b) => a + b, 0);
    const log = t.open();
    try {
      const events = log.read('s');
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(checkBatches(events, committed)).toBe(committed.size);
      expect(log.verify()).toEqual({ ok: true, sessions: 1, events: total });
      // The writers must really have overlapped: batches of the two pids alternate along the chain.
      const pids = events.map((e) => String(e.payload.batch).split('-')[0]);
      const switches = pids.filter((pid, i) => i > 0 && pid !== pids[i - 1]).length;
      expect(switches).toBeGreaterThan(5);
    } finally {
      log.close();
    }
  }, 120_000);
});
