import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCli } from './cli-bench.js';
import { benchContext } from './context-bench.js';
import { benchDist } from './dist-bench.js';
import { benchGenerator } from './generator-bench.js';
import { benchAppends, benchApply, benchWindow } from './kernel-bench.js';
import { benchMcp } from './mcp-bench.js';
import { benchMcpServe } from './mcp-serve-bench.js';
import { benchMemory } from './memory-bench.js';
import { benchOpenApi } from './openapi-bench.js';
import { benchPlugins } from './plugins-bench.js';
import { benchRedact } from './redact-bench.js';
import { benchSandboxes } from './sandbox-bench.js';
import { benchServe } from './serve-bench.js';
import { benchStreaming } from './stream-bench.js';
import { benchTui } from './tui-bench.js';
import { benchWeb } from './web-bench.js';
import { printTable, type Row } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'nodwyn-bench-'));
process.env.NODWYN_HOME = join(dir, 'home');

/** The groups of rows; `npm run bench -- serve cli` runs only those named. */
const GROUPS: Record<string, () => Row[] | Promise<Row[]>> = {
  kernel: async () => [...benchAppends(dir), ...(await benchApply(dir)), ...benchWindow(dir)],
  redact: () => benchRedact(),
  cli: () => benchCli(root, dir),
  dist: () => benchDist(root, dir),
  streaming: () => benchStreaming(root, dir),
  sandboxes: () => benchSandboxes(),
  serve: () => benchServe(root, dir),
  tui: () => benchTui(root, dir),
  web: () => benchWeb(root, dir),
  memory: () => benchMemory(dir),
  context: () => benchContext(root, dir),
  plugins: () => benchPlugins(dir),
  generator: () => benchGenerator(root, dir),
  openapi: () => benchOpenApi(dir),
  'mcp-serve': () => benchMcpServe(root, dir),
  mcp: () => benchMcp(root),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in GROUPS));
if (unknown.length > 0) {
  console.error(`bench: no group ${unknown.join(', ')}; the groups are ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
try {
  const rows: Row[] = [];
  for (const [name, run] of Object.entries(GROUPS)) if (asked.length === 0 || asked.includes(name)) rows.push(...(await run()));
  printTable(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
