import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError, type CallToolResult, type ElicitResult, type Progress, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';

const TOKEN = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

function annotationsOf(tools: Tool[], name: string) {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`${name} is not listed: ${tools.map((t) => t.name).join(', ')}`);
  return tool.annotations;
}

/** The session whose title names the client, from `nodwyn log` in a separate process. */
function sessionOf(sandbox: CliSandbox, client: string) {
  for (const { id } of sandbox.sessions()) {
    const events = sandbox.events(id);
    if (events[0]?.payload.title === `mcp: ${client}`) return events;
  }
  throw new Error(`no session titled "mcp: ${client}"`);
}

describe('nodwyn mcp serve, driven by the MCP SDK client', () => {
  let sandbox: CliSandbox;

  beforeAll(() => {
    sandbox = new CliSandbox();
    sandbox.write('notes.txt', 'the answer is 42\n');
    sandbox.write('deploy.env', `GITHUB_TOKEN=${TOKEN}\n`);
    sandbox.write(join(sandbox.home, 'config.toml'), '[tools.shell]\nallow = ["sleep 2"]\n');
    // The repository would let every `touch` run unasked; it is not trusted, so its config does not apply.
    sandbox.write('.nodwyn/config.toml', '[tools.shell]\nallow = ["touch *"]\n');
  });
  afterAll(() => sandbox.remove());

  describe('over stdio', () => {
    let client: Client;
    let stderr = '';
    const transportErrors: Error[] = [];

    beforeAll(async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', 'serve'], cwd: sandbox.workspace, env: sandbox.env as Record<string, string>, stderr: 'pipe' });
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
      // A line on stdout that is not JSON-RPC would reach the client as a transport error.
      client.onerror = (error) => transportErrors.push(error);
      await client.connect(transport);
    }, 90_000);
    afterAll(async () => {
      await client?.close();
    });

    it('initializes as nodwyn and lists the tools with honest annotations', async () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'nodwyn' });
      expect(client.getServerCapabilities()?.tools).toMatchObject({ listChanged: true });
      const { tools } = await client.listTools();
      expect(annotationsOf(tools, 'read_file')).toEqual({ title: 'Read file', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(annotationsOf(tools, 'write_file')).toEqual({ title: 'Write file', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
      expect(annotationsOf(tools, 'shell')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
      expect(annotationsOf(tools, 'http_request')).toMatchObject({ openWorldHint: true });
      expect(tools.find((t) => t.name === 'read_file')!.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    });

    it('reads a file of the workspace, and a secret in one comes back redacted', async () => {
      const notes = (await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(notes.isError).toBeFalsy();
      expect(text(notes)).toContain('the answer is 42');
      const env = (await client.callTool({ name: 'read_file', arguments: { path: 'deploy.env' } })) as CallToolResult;
      expect(text(env)).toContain('GITHUB_TOKEN=');
      expect(JSON.stringify(env)).not.toContain(TOKEN);
    });

    it('refuses a bad argument with -32602 and the envelope', async () => {
      const error = await client.callTool({ name: 'read_file', arguments: { path: 42 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
      expect((error as McpError).message).toContain('VALIDATION_FAILED');
    });

    it('denies a destructive call with CONFIRMATION_REQUIRED: this client cannot be asked, the untrusted repository allows nothing', async () => {
      const result = (await client.callTool({ name: 'shell', arguments: { command: 'touch never.txt' } })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: 'error', category: 'CONFIRMATION_REQUIRED', operation: 'shell' });
      expect(existsSync(join(sandbox.workspace, 'never.txt'))).toBe(false);
      expect(stderr).toMatch(/ignoring \.nodwyn\/.*not trusted/);
    });

    it('sends progress while a long call runs', async () => {
      const ticks: Progress[] = [];
      const result = (await client.callTool({ name: 'shell', arguments: { command: 'sleep 2' } }, undefined, { onprogress: (p) => ticks.push(p) })) as CallToolResult;
      expect(text(result)).toContain('exit code: 0');
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks[0]).toMatchObject({ progress: 0, message: 'shell started' });
    });

    it('logs every call in a session of its own, and keeps stdout for JSON-RPC', async () => {
      const events = sessionOf(sandbox, 'e2e-stdio');
      const calls = events.filter((e) => e.type === 'mcp.call').map((e) => e.payload.name);
      expect(calls).toEqual(['read_file', 'read_file', 'read_file', 'shell', 'shell']);
      expect(events.filter((e) => e.type === 'tool.denied').map((e) => e.payload.stage)).toEqual(['preflight', 'policy']);
      expect(JSON.stringify(events)).not.toContain(TOKEN);
      expect(transportErrors).toEqual([]);
    });
  });

  describe('over streamable HTTP', () => {
    let child: ChildProcess;
    let served: { url: string; token: string };
    const clients: Client[] = [];

    async function connect(name: string, elicit?: () => ElicitResult): Promise<Client> {
      const client = new Client({ name, version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
      if (elicit) client.setRequestHandler(ElicitRequestSchema, () => elicit());
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }));
      clients.push(client);
      return client;
    }

    beforeAll(async () => {
      child = spawn(process.execPath, [BIN, 'mcp', 'serve', '--http'], { cwd: sandbox.workspace, env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      served = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL line; stderr: ${stderr}`)), 60_000);
        child.stdout!.on('data', (d: Buffer) => {
          stdout += d.toString();
          if (!stdout.includes('\n')) return;
          clearTimeout(timer);
          resolve(JSON.parse(stdout.split('\n')[0]!) as { url: string; token: string });
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
    }, 90_000);
    afterAll(async () => {
      for (const client of clients) await client.close();
      if (child.exitCode === null) child.kill('SIGKILL');
    });

    it('prints its loopback URL and token, also in mcp-serve.json (0600)', () => {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(served.token.length).toBeGreaterThanOrEqual(32);
      const file = join(sandbox.home, 'mcp-serve.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject(served);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });

    it('lists and calls with the token', async () => {
      const client = await connect('e2e-http');
      expect(annotationsOf((await client.listTools()).tools, 'read_file')).toMatchObject({ readOnlyHint: true });
      const result = (await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } })) as CallToolResult;
      expect(text(result)).toContain('the answer is 42');
      const bad = await client.callTool({ name: 'write_file', arguments: { content: 'no path' } }).catch((e: unknown) => e);
      expect((bad as McpError).code).toBe(-32602);
    });

    it('asks a client that declared elicitation, and runs or refuses as it answers', async () => {
      let answer: ElicitResult = { action: 'accept', content: { allow: true } };
      let asked = 0;
      const client = await connect('e2e-elicit', () => {
        asked += 1;
        return answer;
      });
      const ran = (await client.callTool({ name: 'shell', arguments: { command: 'touch made.txt' } })) as CallToolResult;
      expect(ran.isError).toBeFalsy();
      expect(existsSync(join(sandbox.workspace, 'made.txt'))).toBe(true);
      answer = { action: 'decline' };
      const refused = (await client.callTool({ name: 'shell', arguments: { command: 'touch refused.txt' } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ category: 'CONFIRMATION_REQUIRED', code: 'CONFIRMATION_DECLINED' });
      expect(existsSync(join(sandbox.workspace, 'refused.txt'))).toBe(false);
      expect(asked).toBe(2);
    });

    it('refuses a request without the token (401) and a web page origin (403)', async () => {
      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      expect((await fetch(served.url, { method: 'POST', headers, body: init })).status).toBe(401);
      expect((await fetch(served.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer nope' }, body: init })).status).toBe(401);
      expect((await fetch(served.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${served.token}`, origin: 'https://evil.example' }, body: init })).status).toBe(403);
    });

    it('stops on SIGTERM and removes its file', async () => {
      for (const client of clients.splice(0)) await client.close();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(sandbox.home, 'mcp-serve.json'))).toBe(false);
    });
  });
});
