import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestKernel } from '@nodwyn/testing';
import { mcpPlugin } from '../../plugins/mcp/src/index.js';
import { p50Overhead, percentile, type Row } from './stats.js';

/** An MCP read tool (stdio server, warm) through the guard, against the bare SDK call to the same server. */
async function callOverhead(root: string): Promise<Row> {
  const fixture = join(root, 'plugins', 'mcp', 'src', 'client', 'fixtures', 'stdio-server.mjs');
  const server = { command: process.execPath, args: [fixture] };
  const t = await startTestKernel({ plugins: [mcpPlugin], settings: { plugins: { '@nodwyn/plugin-mcp': { servers: { fx: server } } } } });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
  try {
    const deadline = Date.now() + 20_000;
    while (!t.kernel.primitives.list().some((p) => p.name === 'mcp_fx_read_note')) {
      if (Date.now() > deadline) throw new Error('bench: the MCP fixture server did not start');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const row = { name: 'MCP read tool through the guard vs the bare SDK call (stdio, warm), p50 overhead', goalMs: 1, target: '≤ 1 ms', runs: 600, warmup: 100 };
    return await p50Overhead(
      row,
      (i) => client.callTool({ name: 'read_note', arguments: { id: `n${i}` } }),
      async (i) => {
        const result = await t.apply('mcp_fx_read_note', { id: `n${i}` });
        if (!result.ok) throw new Error(JSON.stringify(result.envelope));
      },
    );
  } finally {
    await client.close();
    await t.stop();
  }
}

/** What the plugin adds to a start when no server is configured: it must cost about nothing. */
async function idleCost(): Promise<Row> {
  const bare: number[] = [];
  const withMcp: number[] = [];
  for (let i = 0; i < 30; i++) {
    let start = performance.now();
    await (await startTestKernel({})).stop();
    const b = performance.now() - start;
    start = performance.now();
    await (await startTestKernel({ plugins: [mcpPlugin] })).stop();
    const m = performance.now() - start;
    if (i >= 5) {
      bare.push(b);
      withMcp.push(m);
    }
  }
  const cost = percentile(withMcp, 50) - percentile(bare, 50);
  return {
    name: 'MCP plugin with no servers: added to a kernel start and stop, p50',
    value: `${cost.toFixed(2)} ms`,
    target: '≤ 2 ms',
    ok: cost <= 2,
    note: `p50 with it ${percentile(withMcp, 50).toFixed(2)} ms, without ${percentile(bare, 50).toFixed(2)} ms`,
  };
}

/** The `mcp` group: the MCP client's cost per call, and when idle. */
export async function benchMcp(root: string): Promise<Row[]> {
  return [await callOverhead(root), await idleCost()];
}
