import { definePrimitive, z, type Confirmer } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, McpError, ToolListChangedNotificationSchema as ToolListChanged, type CallToolResult, type ElicitResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from './mcp-server.js';
import type { McpToolHost } from './tool-host.js';

/** Test tools of every tier, and one that takes its time. */
const tools = testPlugin('test-tools', ['primitive:peek', 'primitive:note', 'primitive:wipe', 'primitive:wait', 'primitive:fetch_page', 'primitive:steps', 'primitive:test.hidden'], (ctx) => {
  ctx.primitives.register(
    definePrimitive({
      name: 'peek',
      description: 'Reads a word back.',
      input: z.object({ word: z.string().max(20) }).strict(),
      tier: 'read',
      visibility: 'model',
      handler: ({ word }) => ({ content: `peeked ${word}`, data: { word, length: word.length } }),
    }),
  );
  ctx.primitives.register(definePrimitive({ name: 'note', description: 'Writes a note.', input: z.object({ text: z.string() }).strict(), tier: 'mutate', visibility: 'model', handler: () => ({ content: 'noted' }) }));
  ctx.primitives.register(definePrimitive({ name: 'wipe', description: 'Wipes everything.', input: z.object({}).strict(), tier: 'destructive', visibility: 'model', handler: () => ({ content: 'wiped' }) }));
  ctx.primitives.register(
    definePrimitive({
      name: 'wait',
      description: 'Waits, then answers.',
      input: z.object({ ms: z.number().int().max(10_000) }).strict(),
      tier: 'read',
      visibility: 'model',
      handler: ({ ms }, context) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ content: `waited ${ms}` }), ms);
          context.signal.addEventListener('abort', () => (clearTimeout(timer), reject(context.signal.reason)), { once: true });
        }),
    }),
  );
  ctx.primitives.register(
    definePrimitive({
      name: 'steps',
      description: 'Works in three steps, saying how far it has got.',
      input: z.object({}).strict(),
      tier: 'read',
      visibility: 'model',
      handler: async (_args, context) => {
        for (let step = 1; step <= 3; step++) {
          await new Promise((resolve) => setTimeout(resolve, 120));
          context.progress?.({ progress: step, total: 3, message: `step ${step} of 3` });
        }
        return { content: 'three steps done' };
      },
    }),
  );
  ctx.primitives.register(
    definePrimitive({ name: 'fetch_page', description: 'Fetches a page.', input: z.object({}).strict(), tier: 'read', visibility: 'model', egress: true, egressTargets: () => [], handler: () => ({ content: 'page' }) }),
  );
  ctx.primitives.register(definePrimitive({ name: 'test.hidden', description: 'Host only.', input: z.object({}).strict(), tier: 'read', visibility: 'host', handler: () => ({ content: 'host' }) }));
});

/** The test kernel served as `nodwyn mcp serve` serves a workspace: a session per connection, calls as the model's. */
function hostOver(tk: TestKernel, sessions: string[]): McpToolHost {
  return {
    tools: () => tk.kernel.primitives.list().filter((p) => p.visibility === 'model'),
    session(client) {
      const session = tk.kernel.sessions.create({ workspace: tk.workspace, title: `mcp: ${client.name}` });
      sessions.push(session);
      return { call: (call) => tk.kernel.apply({ session, name: call.name, args: call.args, origin: 'model', signal: call.signal, confirmer: call.confirmer as Confirmer | undefined, onProgress: call.progress }) };
    },
  };
}

async function connect(host: McpToolHost, elicit?: (params: { message: string }) => ElicitResult): Promise<Client> {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await createMcpServer(host, { name: 'nodwyn', version: '0.0.0' }, { progressIntervalMs: 100 }).connect(serverEnd);
  const client = new Client({ name: 'unit-client', version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  await client.connect(clientEnd);
  return client;
}

describe('the MCP server over a real kernel', () => {
  let tk: TestKernel;
  const sessions: string[] = [];
  let plain: Client;

  beforeAll(async () => {
    tk = await startTestKernel({ plugins: [tools] });
    plain = await connect(hostOver(tk, sessions));
  });
  afterAll(async () => {
    await plain.close();
    await tk.stop();
  });

  it('lists the model-visible tools with honest annotations', async () => {
    const { tools: listed } = await plain.listTools();
    const byName = new Map(listed.map((t) => [t.name, t]));
    expect(byName.has('test.hidden')).toBe(false);
    expect(byName.get('peek')!.annotations).toEqual({ title: 'Peek', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(byName.get('note')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(byName.get('wipe')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(byName.get('fetch_page')!.annotations).toMatchObject({ title: 'Fetch page', openWorldHint: true });
    expect(byName.get('peek')!.inputSchema).toMatchObject({ type: 'object', properties: { word: { type: 'string' } } });
  });

  it('answers a call with its text and data, logged in the connection\'s session', async () => {
    const result = (await plain.callTool({ name: 'peek', arguments: { word: 'owl' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'peeked owl' }]);
    expect(result.structuredContent).toEqual({ word: 'owl', length: 3 });
    expect(sessions).toHaveLength(1);
    const events = tk.events(sessions[0]!);
    expect(events[0]).toMatchObject({ type: 'session.created', payload: { title: 'mcp: unit-client' } });
    expect(events.find((e) => e.type === 'tool.completed')).toMatchObject({ payload: { name: 'peek', content: 'peeked owl' } });
  });

  it('refuses arguments that fail the schema, and unknown tools, with -32602 and the envelope', async () => {
    const bad = await plain.callTool({ name: 'peek', arguments: { word: 7 } }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(McpError);
    expect((bad as McpError).code).toBe(-32602);
    expect(JSON.parse((bad as McpError).message.replace(/^MCP error -32602: /, ''))).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.word' });
    expect((bad as McpError).data).toMatchObject({ status: 'error', category: 'VALIDATION_FAILED' });
    const unknown = await plain.callTool({ name: 'test.hidden', arguments: {} }).catch((error: unknown) => error);
    expect((unknown as McpError).code).toBe(-32602);
  });

  it('denies a destructive call with CONFIRMATION_REQUIRED when the client cannot be asked', async () => {
    const result = (await plain.callTool({ name: 'wipe', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'error', category: 'CONFIRMATION_REQUIRED', operation: 'wipe' });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  it('asks by elicitation when the client can answer, and does what it says', async () => {
    const asked: string[] = [];
    let answer: ElicitResult = { action: 'accept', content: { allow: true } };
    const client = await connect(hostOver(tk, sessions), (params) => {
      asked.push(params.message);
      return answer;
    });
    try {
      const ran = (await client.callTool({ name: 'wipe', arguments: {} })) as CallToolResult;
      expect(ran.content).toEqual([{ type: 'text', text: 'wiped' }]);
      expect(asked[0]).toContain('wipe (tier: destructive)');
      answer = { action: 'decline' };
      const declined = (await client.callTool({ name: 'wipe', arguments: {} })) as CallToolResult;
      expect(declined.structuredContent).toMatchObject({ category: 'CONFIRMATION_REQUIRED', code: 'CONFIRMATION_DECLINED' });
      answer = { action: 'accept', content: { allow: false } };
      const unticked = (await client.callTool({ name: 'wipe', arguments: {} })) as CallToolResult;
      expect(unticked.isError).toBe(true);
      const decided = tk.events(sessions.at(-1)!).filter((e) => e.type === 'confirmation.decided');
      expect(decided.map((e) => [e.payload.granted, e.payload.by])).toEqual([
        [true, 'mcp:unit-client'],
        [false, 'mcp:unit-client'],
        [false, 'mcp:unit-client'],
      ]);
    } finally {
      await client.close();
    }
  });

  it('reports progress while a call runs, and a cancel aborts it', async () => {
    const ticks: Progress[] = [];
    const result = (await plain.callTool({ name: 'wait', arguments: { ms: 450 } }, undefined, { onprogress: (p) => ticks.push(p) })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'waited 450' }]);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks[0]!.message).toBe('wait started');
    expect(ticks.map((t) => t.progress)).toEqual([...ticks.map((t) => t.progress)].sort((a, b) => a - b));
    const controller = new AbortController();
    const cancelled = plain.callTool({ name: 'wait', arguments: { ms: 5000 } }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
    setTimeout(() => controller.abort('enough'), 100);
    expect(await cancelled).toBeDefined();
    for (let waited = 0; waited < 3000; waited += 50) {
      if (tk.events(sessions[0]!).some((e) => e.type === 'tool.failed' && e.payload.name === 'wait')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const failed = tk.events(sessions[0]!).find((e) => e.type === 'tool.failed' && e.payload.name === 'wait');
    expect(failed?.payload.envelope).toMatchObject({ category: 'CANCELLED' });
  });

  it('sends the tool\'s own progress once it reports some, in place of the ticks', async () => {
    const updates: Progress[] = [];
    const result = (await plain.callTool({ name: 'steps', arguments: {} }, undefined, { onprogress: (p) => updates.push(p) })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'three steps done' }]);
    // A tick may have told the client `1` before the tool's own first step: that step is then not past it.
    const first = updates.findIndex((u) => u.total === 3);
    expect(first).toBeGreaterThan(0);
    expect(updates.slice(first).every((u) => u.total === 3 && u.message === `step ${u.progress} of 3`)).toBe(true);
    expect(updates.at(-1)).toMatchObject({ progress: 3, total: 3, message: 'step 3 of 3' });
    expect(updates.map((u) => u.progress)).toEqual([...new Set(updates.map((u) => u.progress))].sort((a, b) => a - b));
  });

  it('tells a client that listed the tools when the list changes', async () => {
    await plain.listTools();
    const changed = new Promise<void>((resolve) => plain.setNotificationHandler(ToolListChanged, () => resolve()));
    tk.kernel.primitives.register('late', definePrimitive({ name: 'late_tool', description: 'Came late.', input: z.object({}).strict(), tier: 'read', visibility: 'model', handler: () => ({ content: 'late' }) }), {});
    await plain.callTool({ name: 'peek', arguments: { word: 'x' } });
    await changed;
    expect((await plain.listTools()).tools.some((t) => t.name === 'late_tool')).toBe(true);
  });
});
