import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { EgressSenderToken, SECRET_HANDLE, z, type EgressTarget, type GuardCall } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpPlugin } from '../index.js';
import { until } from '../../test/client-support.js';

const TOKEN = 'tok-Zx81-not-a-real-token';
const seen: { method: string; authorization: string | undefined; body: string }[] = [];
let http: Server;
let url: string;
let t: TestKernel;
const targets: (readonly EgressTarget[])[] = [];
let refuse = false;
let refuseConnect = false;

/** A stateless streamable HTTP MCP server on 127.0.0.1 with one read tool and one open-world tool. */
function mcpServer(): McpServer {
  const server = new McpServer({ name: 'http-fixture', version: '1.0.0' });
  server.registerTool('lookup', { description: 'Looks up.', inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } }, async ({ q }) => ({ content: [{ type: 'text', text: `found ${q}` }] }));
  server.registerTool('browse', { description: 'Browses the web.', inputSchema: { url: z.string() }, annotations: { readOnlyHint: true, openWorldHint: true } }, async () => ({ content: [{ type: 'text', text: 'page' }] }));
  return server;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A sender like the egress plugin's last hop: it substitutes the one handle it knows and sends. */
const sender = testPlugin('test-sender', ['service:egress.sender'], (ctx) =>
  ctx.services.provide(EgressSenderToken, {
    send: (_session, request, signal) =>
      fetch(request.url, {
        method: request.method,
        headers: request.headers.map(([name, value]) => [name, value.replace(SECRET_HANDLE, (handle, name: string) => (name === 'mcp_token' ? TOKEN : handle))]),
        ...(request.body !== undefined ? { body: request.body } : {}),
        ...(signal ? { signal } : {}),
      }),
  }),
);

/** An egress stage that records what the guard sees, and refuses when told to. */
const egressStage = testPlugin('test-egress-stage', ['guard-stage:test-egress'], (ctx) =>
  ctx.guard.addStage({
    name: 'test-egress',
    slot: 'egress',
    check: (call: GuardCall) => {
      if (call.owner === '@nodwyn/plugin-mcp') targets.push(call.targets);
      return refuse || (refuseConnect && call.name === 'mcp.connect') ? { kind: 'deny', envelope: { status: 'error', category: 'PERMISSION_DENIED', code: 'TEST_REFUSED', remediation: 'refused by the test', retryable: 'never', trace: { attempts: 0 } } as never } : { kind: 'allow' };
    },
  }),
);

beforeAll(async () => {
  http = createServer(async (req, res) => {
    const body = req.method === 'POST' ? await bodyOf(req) : '';
    seen.push({ method: req.method ?? '', authorization: req.headers.authorization, body });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = mcpServer();
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, body === '' ? undefined : JSON.parse(body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  t = await startTestKernel({
    plugins: [sender, egressStage, mcpPlugin],
    settings: { plugins: { '@nodwyn/plugin-mcp': { servers: { web: { url, headers: { Authorization: 'Bearer {{secret:mcp_token}}' } } } } } },
  });
  await until(() => t.kernel.primitives.list().some((p) => p.name === 'mcp_web_lookup'), 15_000, 'the HTTP server');
});

afterAll(async () => {
  await t?.stop();
  await new Promise((resolve) => http.close(resolve));
});

describe('a streamable HTTP MCP server with a keychain handle in its headers', () => {
  it('declares the request and its handle (never the value) for the egress stage, on every tool', () => {
    const lookup = t.kernel.primitives.list().find((p) => p.name === 'mcp_web_lookup');
    const browse = t.kernel.primitives.list().find((p) => p.name === 'mcp_web_browse');
    expect(lookup).toMatchObject({ tier: 'read', egress: true });
    expect(browse).toMatchObject({ tier: 'read', egress: true, kind: 'fetch' });
    // The first request the guard saw was the connect check, before the handshake went out: every method
    // the transport may send with the credential (messages, the event stream, the session's end).
    const positions = [{ kind: 'header', name: 'Authorization', value: 'Bearer {{secret:mcp_token}}' }];
    expect(targets[0]).toEqual(['POST', 'GET', 'DELETE'].map((method) => ({ method, url, positions })));
  });

  it('sends the call through the egress sender, which alone substitutes the handle', async () => {
    const before = seen.length;
    const result = await t.apply('mcp_web_lookup', { q: 'x' });
    expect(result).toMatchObject({ ok: true, content: 'found x' });
    expect(targets.at(-1)).toEqual([{ method: 'POST', url, positions: [{ kind: 'header', name: 'Authorization', value: 'Bearer {{secret:mcp_token}}' }] }]);
    const call = seen.slice(before).find((r) => r.body.includes('tools/call'));
    expect(call?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(t.events('test'))).not.toContain(TOKEN);
  });

  it('puts the handshake, which carries the credential too, before the egress stage first', async () => {
    refuseConnect = true;
    const before = seen.length;
    const other = await startTestKernel({
      plugins: [sender, egressStage, mcpPlugin],
      settings: { plugins: { '@nodwyn/plugin-mcp': { servers: { web: { url, headers: { Authorization: 'Bearer {{secret:mcp_token}}' } } } } } },
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(seen.length).toBe(before);
      expect(other.kernel.primitives.list().filter((p) => p.name.startsWith('mcp_web_'))).toEqual([]);
      const result = await other.apply('mcp_web_lookup', { q: 'z' });
      expect(result.ok).toBe(false);
      expect(seen.length).toBe(before);
    } finally {
      refuseConnect = false;
      await other.stop();
    }
  });

  it('makes a call to a server that went away an envelope, and connects anew once it is back', async () => {
    const port = (http.address() as AddressInfo).port;
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    expect(await t.apply('mcp_web_lookup', { q: 'gone' })).toMatchObject({ ok: false, envelope: { category: 'UPSTREAM_UNAVAILABLE', code: 'MCP_CONNECTION_LOST' } });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    expect(await t.apply('mcp_web_lookup', { q: 'back' })).toMatchObject({ ok: true, content: 'found back' });
  });

  it('sends nothing when the egress stage refuses the call', async () => {
    refuse = true;
    const before = seen.length;
    const result = await t.apply('mcp_web_lookup', { q: 'y' });
    refuse = false;
    expect(result).toMatchObject({ ok: false, stage: 'egress:test-egress' });
    expect(seen.slice(before).some((r) => r.body.includes('tools/call'))).toBe(false);
  });
});
