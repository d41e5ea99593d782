import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCli } from './cli-bench.js';
import { benchAppends, benchApply, benchWindow } from './kernel-bench.js';
import { benchRedact } from './redact-bench.js';
import { benchSandboxes } from './sandbox-bench.js';
import { benchStreaming } from './stream-bench.js';
import { printTable, type Row } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'nodwyn-bench-'));
process.env.NODWYN_HOME = join(dir, 'home');
try {
  const rows: Row[] = [...benchAppends(dir), ...(await benchApply(dir)), ...benchWindow(dir), ...benchRedact(), ...benchCli(root, dir), ...(await benchStreaming(root, dir)), ...(await benchSandboxes())];
  printTable(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
