import { Kernel } from '@nodwyn/kernel';
import { z } from '@nodwyn/plugin-api';
import { createMcpServer } from '@nodwyn/plugin-mcp/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { percentile, type Row } from './stats.js';

/**
 * What `nodwyn mcp serve` adds to a guarded call: an SDK client's `tools/call` of a no-op read tool
 * through the server builder (in-memory transport, the log in memory), against the same call made with
 * `kernel.apply` directly. Then the bundled CLI's start: spawn to the `initialize` answer, over stdio.
 */
export async function benchMcpServe(root: string, dir: string): Promise<Row[]> {
  const kernel = Kernel.open({ dbPath: ':memory:', key: randomBytes(32), workspace: dir });
  kernel.primitives.register('bench', { name: 'noop', description: 'does nothing', input: z.object({}), tier: 'read', visibility: 'model', handler: () => ({ content: '' }) });
  const session = kernel.sessions.create({ workspace: dir });
  const host = {
    tools: () => kernel.primitives.list().filter((p) => p.visibility === 'model'),
    session: () => ({ call: (call: { name: string; args: unknown; signal: AbortSignal }) => kernel.apply({ session, name: call.name, args: call.args, origin: 'model', signal: call.signal }) }),
  };
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await createMcpServer(host, { name: 'nodwyn', version: 'bench' }).connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  const direct: number[] = [];
  const served: number[] = [];
  for (let i = 0; i < 6_000; i++) {
    let start = process.hrtime.bigint();
    await kernel.apply({ session, name: 'noop', args: {}, origin: 'model' });
    if (i >= 1_000) direct.push(Number(process.hrtime.bigint() - start) / 1000);
    start = process.hrtime.bigint();
    await client.callTool({ name: 'noop', arguments: {} });
    if (i >= 1_000) served.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  await client.close();
  kernel.close();
  const overhead = percentile(served, 50) - percentile(direct, 50);
  const startMs = await stdioStart(join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs'), dir);
  return [
    { name: 'mcp serve: tools/call overhead over apply(), p50', value: `${overhead.toFixed(1)} µs`, target: '≤ 1000 µs', ok: overhead <= 1000, note: `p50 ${percentile(served, 50).toFixed(1)} µs vs ${percentile(direct, 50).toFixed(1)} µs; in-memory transport` },
    { name: 'mcp serve: start to initialize answer (stdio)', value: `${startMs.toFixed(0)} ms`, target: '', ok: undefined, note: 'bundled CLI, default distribution, cold' },
  ];
}

async function stdioStart(bin: string, dir: string): Promise<number> {
  const home = join(dir, 'mcp-serve-home');
  const workspace = join(dir, 'mcp-serve-workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'hello.txt'), 'hello\n');
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const start = performance.now();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', 'serve'], cwd: workspace, env: { PATH: process.env.PATH ?? '', HOME: dir, NODWYN_HOME: home }, stderr: 'ignore' }));
  const elapsed = performance.now() - start;
  await client.close();
  return elapsed;
}
