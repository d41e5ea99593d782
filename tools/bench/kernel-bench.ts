import { Kernel, EventLog, SessionWindow, type AppendDraft } from '@nodwyn/kernel';
import { z } from '@nodwyn/plugin-api';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { percentile, type Row } from './stats.js';

const draft = (i: number): AppendDraft => ({ type: 'tool.completed', actor: 'tool:read_file', payload: { call_id: `c${i}`, name: 'read_file', content: `line ${i}: const x = ${i};` } });

/** Log appends per second, one transaction each and in batches of 1000, on a WAL file. */
export function benchAppends(dir: string): Row[] {
  const log = EventLog.open({ path: join(dir, 'append.db'), keyPath: join(dir, 'append.key') });
  const singles = 5_000;
  let start = performance.now();
  for (let i = 0; i < singles; i++) log.append('single', draft(i));
  const singleRate = singles / ((performance.now() - start) / 1000);
  const batches = 100;
  const batch = Array.from({ length: 1000 }, (_, i) => draft(i));
  start = performance.now();
  for (let b = 0; b < batches; b++) log.appendBatch('batched', batch);
  const batchRate = (batches * batch.length) / ((performance.now() - start) / 1000);
  log.close();
  return [
    { name: 'log appends, single (file, WAL)', value: `${Math.round(singleRate).toLocaleString('en')}/s`, target: '', ok: undefined },
    { name: 'log appends, batched ×1000', value: `${Math.round(batchRate).toLocaleString('en')}/s`, target: '≥ 50,000/s', ok: batchRate >= 50_000 },
  ];
}

/**
 * Overhead of `apply()` for a no-op read tool: the whole guard path, including the one outcome event it
 * appends. Measured with the log in memory (the guard's own cost) and on a WAL file (what a durable
 * commit adds on this disk).
 */
export async function benchApply(dir: string): Promise<Row[]> {
  const memory = await applySamples(':memory:', dir);
  const file = await applySamples(join(dir, 'apply.db'), dir);
  return [
    { name: 'apply() no-op read tool, p50 (log in memory)', value: `${percentile(memory, 50).toFixed(1)} µs`, target: '≤ 50 µs', ok: percentile(memory, 50) <= 50, note: `p99 ${percentile(memory, 99).toFixed(1)} µs` },
    { name: 'apply() no-op read tool, p50 (log on WAL file)', value: `${percentile(file, 50).toFixed(1)} µs`, target: '', ok: undefined, note: `p99 ${percentile(file, 99).toFixed(1)} µs; one SQLite commit per call` },
  ];
}

async function applySamples(dbPath: string, dir: string): Promise<number[]> {
  const kernel = Kernel.open({ dbPath, key: randomBytes(32), workspace: dir });
  kernel.primitives.register('bench', { name: 'noop', description: 'does nothing', input: z.object({}), tier: 'read', visibility: 'model', handler: () => ({ content: '' }) });
  const samples: number[] = [];
  for (let i = 0; i < 12_000; i++) {
    const start = process.hrtime.bigint();
    await kernel.apply({ session: 'bench', name: 'noop', args: {}, origin: 'model', callId: `c${i}` });
    if (i >= 2_000) samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  kernel.close();
  return samples;
}

/** Rebuilding the model window of a 10k-event session from the log's end (as a turn's first model call does). */
export function benchWindow(dir: string): Row[] {
  const kernel = Kernel.open({ dbPath: join(dir, 'window.db'), key: randomBytes(32), workspace: dir });
  const session = kernel.sessions.create({ workspace: dir });
  const drafts: AppendDraft[] = [];
  for (let i = 0; drafts.length < 9_999; i++) {
    drafts.push({ type: 'message.user', actor: 'user', payload: { text: `question ${i}` } });
    drafts.push({ type: 'message.assistant', actor: 'model', payload: { text: 'looking', tool_calls: [{ id: `c${i}`, name: 'read_file', args: { path: `f${i}.ts` } }], stop_reason: 'tool_use', provider: 'bench' } });
    drafts.push({ type: 'tool.completed', actor: 'tool:read_file', payload: { call_id: `c${i}`, name: 'read_file', content: `export const v${i} = ${i};\n`.repeat(4) } });
  }
  kernel.log.appendBatch(session, drafts.slice(0, 9_999));
  const samples: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    SessionWindow.open(kernel.log, session, { windowTokens: 150_000, answerTokens: 8_192 }).view();
    samples.push(performance.now() - start);
  }
  kernel.close();
  const p50 = percentile(samples, 50);
  return [{ name: 'window rebuild, 10k-event session', value: `${p50.toFixed(1)} ms`, target: '≤ 50 ms', ok: p50 <= 50, note: 'median of 15' }];
}
