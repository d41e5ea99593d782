/**
 * Append throughput of the event log, single and batched, on a temp file. Not a test (speed goals are
 * never timed tests); run it by hand, or from the bench runner:
 *   node --conditions=@nodwyn/source --import tsx packages/kernel/test/log/bench-log.ts
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EventLog, type AppendDraft } from '../../src/log/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodwyn-log-bench-'));
const payload = { call_id: 'c-1', name: 'read_file', content: 'x'.repeat(200), truncated: false };
const draft = (i: number): AppendDraft => ({ type: 'tool.completed', actor: 'tool:read_file', payload: { ...payload, i } });

function measure(label: string, events: number, run: (log: EventLog) => void): void {
  const file = path.join(dir, `${label}.db`);
  const log = EventLog.open({ path: file, keyPath: path.join(dir, 'key') });
  const started = process.hrtime.bigint();
  const cpuStarted = process.cpuUsage();
  run(log);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  // CPU time too: on a shared machine, wall time measures the neighbours as much as the log.
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const verifyStarted = process.hrtime.bigint();
  const report = log.verify();
  const verifySeconds = Number(process.hrtime.bigint() - verifyStarted) / 1e9;
  log.close();
  console.log(
    `${label.padEnd(10)} ${events} events: ${Math.round(events / seconds)}/s wall (${seconds.toFixed(2)} s), ` +
      `${Math.round(events / cpuSeconds)}/s per CPU second; verify ${report.ok ? 'ok' : 'FAILED'} at ${Math.round(events / verifySeconds)}/s`,
  );
}

try {
  const singles = Number(process.argv[2] ?? 20_000);
  measure('single', singles, (log) => {
    for (let i = 0; i < singles; i++) log.append('s-single', draft(i));
  });
  for (const size of [10, 100, 1000]) {
    const total = Number(process.argv[3] ?? 200_000);
    measure(`batch-${size}`, total, (log) => {
      for (let i = 0; i < total; i += size) log.appendBatch('s-batch', Array.from({ length: size }, (_, j) => draft(i + j)));
    });
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
