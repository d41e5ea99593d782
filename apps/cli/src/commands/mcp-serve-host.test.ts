import { definePrimitive, z } from '@nodwyn/plugin-api';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelToolHost, type KernelToolHost } from './mcp-serve-host.js';

const TOKEN = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';

const tools = testPlugin('host-tools', ['primitive:report', 'primitive:linger'], (ctx) => {
  ctx.primitives.register(
    definePrimitive({ name: 'report', description: 'Reports, with data.', input: z.object({}).strict(), tier: 'read', visibility: 'model', handler: () => ({ content: 'see the data', data: { token: TOKEN, note: 'plain' } }) }),
  );
  ctx.primitives.register(
    definePrimitive({
      name: 'linger',
      description: 'Waits until cancelled.',
      input: z.object({}).strict(),
      tier: 'read',
      visibility: 'model',
      handler: (_args, context) => new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true })),
    }),
  );
});

describe('the kernel as mcp serve serves it', () => {
  let tk: TestKernel;
  let host: KernelToolHost;

  beforeAll(async () => {
    tk = await startTestKernel({ plugins: [redactL1Plugin, redactL2Plugin, tools] });
    host = kernelToolHost(tk);
  });
  afterAll(() => tk.stop());

  it('passes structured data through the text layers before a client sees it, and logs the request', async () => {
    const session = host.session({ name: 'unit', version: '1' });
    const result = await session.call({ name: 'report', args: {}, signal: new AbortController().signal });
    expect(result).toMatchObject({ ok: true, content: 'see the data', data: { note: 'plain' } });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    const id = tk.kernel.sessions.list().find((s) => s.title === 'mcp: unit')!.id;
    const events = tk.events(id);
    expect(events.map((e) => e.type)).toEqual(['session.created', 'mcp.call', 'tool.completed']);
    expect(events[1]).toMatchObject({ actor: 'model', payload: { name: 'report', args: {}, client: 'unit' } });
    expect(events[2]!.payload.call_id).toBe(events[1]!.payload.call_id);
  });

  it('cancels the calls still running when closed, each logged before close resolves', async () => {
    const session = host.session({ name: 'closing', version: '1' });
    const running = session.call({ name: 'linger', args: {}, signal: new AbortController().signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await host.close();
    expect(await running).toMatchObject({ ok: false, envelope: { category: 'CANCELLED' } });
    const id = tk.kernel.sessions.list().find((s) => s.title === 'mcp: closing')!.id;
    expect(tk.events(id).at(-1)).toMatchObject({ type: 'tool.failed', payload: { name: 'linger' } });
  });
});
