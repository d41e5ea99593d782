import { definePrimitive, z } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp, type McpHttpServer } from './http-serve.js';
import { serveMcpStdio } from './stdio-serve.js';
import type { McpToolHost } from './tool-host.js';

const echo = testPlugin('echo-tools', ['primitive:echo'], (ctx) => {
  ctx.primitives.register(
    definePrimitive({
      name: 'echo',
      description: 'Echoes, after a pause when asked.',
      input: z.object({ text: z.string(), pause_ms: z.number().int().max(2000).optional() }).strict(),
      tier: 'read',
      visibility: 'model',
      handler: async ({ text, pause_ms }) => {
        if (pause_ms) await new Promise((resolve) => setTimeout(resolve, pause_ms));
        return { content: text };
      },
    }),
  );
});

async function errorOf(response: Response): Promise<{ code: number; data?: unknown }> {
  return ((await response.json()) as { error: { code: number; data?: unknown } }).error;
}

function hostOver(tk: TestKernel): McpToolHost {
  return {
    tools: () => tk.kernel.primitives.list().filter((p) => p.visibility === 'model'),
    session(client) {
      const session = tk.kernel.sessions.create({ workspace: tk.workspace, title: `mcp: ${client.name}` });
      return { call: (call) => tk.kernel.apply({ session, name: call.name, args: call.args, origin: 'model', signal: call.signal }) };
    },
  };
}

describe('streamable HTTP on loopback with a bearer token', () => {
  let tk: TestKernel;
  let served: McpHttpServer;
  const token = 'test-token-0123456789';
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const post = (headers: Record<string, string>, body: string = JSON.stringify(initialize), path = '/mcp') =>
    fetch(`http://127.0.0.1:${served.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });

  beforeAll(async () => {
    tk = await startTestKernel({ plugins: [echo] });
    served = await startMcpHttp(hostOver(tk), { name: 'nodwyn', version: '0.0.0' }, { token });
  });
  afterAll(async () => {
    await served.close();
    await tk.stop();
  });

  it('serves the SDK client that sends the token', async () => {
    const client = new Client({ name: 'http-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
      const result = (await client.callTool({ name: 'echo', arguments: { text: 'over http' } })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'over http' }]);
    } finally {
      await client.close();
    }
  });

  it('refuses a request without the token or with another one (401), before reading it', async () => {
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await errorOf(missing)).data).toMatchObject({ category: 'AUTH_FAILED', code: 'MCP_SERVE_UNAUTHORIZED' });
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${token}x` })).status).toBe(401);
  });

  it('refuses a web page origin (403) even with the token', async () => {
    const page = await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect((await errorOf(page)).data).toMatchObject({ code: 'MCP_SERVE_FORBIDDEN', failed_parameter: 'Origin' });
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
  });

  it('answers a body that is not JSON with a parse error, other paths with 404, and stays up', async () => {
    const garbage = await post({ authorization: `Bearer ${token}` }, '{not json');
    expect(garbage.status).toBe(400);
    expect((await errorOf(garbage)).code).toBe(-32700);
    expect((await post({ authorization: `Bearer ${token}` }, JSON.stringify(initialize), '/other')).status).toBe(404);
    const stale = await post({ authorization: `Bearer ${token}`, 'mcp-session-id': 'no-such-session' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(stale.status).toBe(404);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
  });
});

describe('stdio', () => {
  it('answers lines that are not JSON-RPC with errors and serves on; when stdin closes, answers what was sent, then ends', async () => {
    const tk = await startTestKernel({ plugins: [echo] });
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts.map((line) => JSON.parse(line) as Record<string, unknown>));
    });
    const serving = serveMcpStdio(hostOver(tk), { name: 'nodwyn', version: '0.0.0' }, { input, output });
    const next = async (count: number) => {
      for (let waited = 0; lines.length < count && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      return lines[count - 1];
    };
    try {
      input.write('this is not json\n');
      expect(await next(1)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      input.write('{"hello":"world"}\n');
      expect(await next(2)).toMatchObject({ error: { code: -32600 } });
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
      expect(await next(3)).toMatchObject({ id: 1, result: { serverInfo: { name: 'nodwyn' } } });
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' })}\n`);
      expect(await next(4)).toMatchObject({ id: 2, error: { code: -32601 } });
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } })}\n`);
      expect(await next(5)).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'still here' }] } });
      input.end(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'sent before the end', pause_ms: 300 } } })}\n`);
      await serving;
      expect(await next(6)).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'sent before the end' }] } });
    } finally {
      await tk.stop();
    }
  });
});
