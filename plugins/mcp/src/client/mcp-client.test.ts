import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfirmationRequest } from '@nodwyn/plugin-api';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpPlugin } from '../index.js';
import { layersPlugin, marks, RememberingTracker, STDIO_FIXTURE, until } from '../../test/client-support.js';

let t: TestKernel;
const tracker = new RememberingTracker();
const marker = join(mkdtempSync(join(tmpdir(), 'nodwyn-mcp-marker-')), 'marks.log');

const tool = (name: string) => t.kernel.primitives.list().find((p) => p.name === name);
const pidOf = async (): Promise<number> => {
  const result = await t.apply('mcp_fx_pid', {});
  if (!result.ok) throw new Error(JSON.stringify(result.envelope));
  return Number(result.content);
};

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'nodwyn-mcp-home-'));
  process.env.NODWYN_HOME = home;
  t = await startTestKernel({
    dataDir: home,
    plugins: [layersPlugin(tracker), mcpPlugin],
    settings: {
      plugins: {
        '@nodwyn/plugin-mcp': {
          servers: {
            fx: { command: process.execPath, args: [STDIO_FIXTURE], env: { MARKER: marker }, timeout_ms: 1500 },
            doubted: { command: process.execPath, args: [STDIO_FIXTURE], read_only_hints: false },
          },
        },
      },
    },
  });
  await until(() => tool('mcp_fx_read_note') !== undefined && tool('mcp_doubted_read_note') !== undefined, 15_000, 'the fixture servers');
});

afterAll(async () => {
  await t?.stop();
});

describe('a stdio MCP server as guarded tools', () => {
  it('offers its tools under mcp_<server>_<tool>, tiers from the hints only where they ask for care', () => {
    expect(tool('mcp_fx_read_note')).toMatchObject({ tier: 'read', owner: '@nodwyn/plugin-mcp', egress: false });
    expect(tool('mcp_fx_write_note')).toMatchObject({ tier: 'mutate' });
    expect(tool('mcp_fx_delete_note')).toMatchObject({ tier: 'destructive' });
    expect(tool('mcp_fx_says_safe')).toMatchObject({ tier: 'destructive', egress: true });
    expect(tool('mcp_fx_read_note')?.inputSchema).toMatchObject({ properties: { id: { type: 'string' } }, required: ['id'] });
  });

  it('makes every tool of a server whose read-only hints the person does not take at least a mutate', () => {
    expect(tool('mcp_doubted_read_note')).toMatchObject({ tier: 'mutate' });
    expect(tool('mcp_doubted_delete_note')).toMatchObject({ tier: 'destructive' });
    expect(tool('mcp_doubted_list_resources')).toMatchObject({ tier: 'read' });
  });

  it('runs a read without asking', async () => {
    const asked: ConfirmationRequest[] = [];
    const result = await t.apply('mcp_fx_read_note', { id: 'a1' }, { confirm: { confirm: async (r) => (asked.push(r), true) } });
    expect(result).toMatchObject({ ok: true, content: 'note a1' });
    expect(asked).toHaveLength(0);
  });

  it('asks before a destructive call, and a no is an envelope', async () => {
    expect(await t.apply('mcp_fx_delete_note', { id: 'a1' })).toMatchObject({ ok: false, envelope: { category: 'CONFIRMATION_REQUIRED' } });
    const asked: ConfirmationRequest[] = [];
    const denied = await t.apply('mcp_fx_delete_note', { id: 'a1' }, { confirm: { confirm: async (r) => (asked.push(r), false) } });
    expect(denied.ok).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ name: 'mcp_fx_delete_note', tier: 'destructive', args: { id: 'a1' } });
    expect(asked[0]?.effects?.[0]).toMatch(/^calls delete_note of MCP server fx \(your config: .*stdio-server\.mjs\)$/);
    expect(await t.apply('mcp_fx_delete_note', { id: 'a1' }, { confirm: true })).toMatchObject({ ok: true, content: 'deleted a1' });
  });

  it('refuses bad arguments in preflight, before the server sees them', async () => {
    expect(await t.apply('mcp_fx_read_note', { id: 3 })).toMatchObject({ ok: false, stage: 'preflight', envelope: { category: 'VALIDATION_FAILED' } });
  });

  it('makes an isError result an envelope, its message through the text layer', async () => {
    const result = await t.apply('mcp_fx_fail', { why: 'key sk-test-abc123 rejected' });
    expect(result).toMatchObject({ ok: false, envelope: { category: 'PRECONDITION_FAILED', code: 'MCP_TOOL_FAILED', plugin: '@nodwyn/plugin-mcp' } });
    const remediation = result.ok ? '' : result.envelope.remediation;
    expect(remediation).toContain('failed: key [REDACTED test] rejected');
    expect(remediation).not.toContain('sk-test-abc123');
  });

  it('keeps structuredContent: as JSON in the text and in data', async () => {
    const result = await t.apply('mcp_fx_count', { n: 3 });
    expect(result).toMatchObject({ ok: true, content: 'counted 3\n{"count":3}', data: { structuredContent: { count: 3 } } });
  });

  it('includes embedded text resources and summarizes binary content', async () => {
    const result = await t.apply('mcp_fx_mixed', {});
    expect(result.ok && result.content.split('\n')).toEqual([
      'first',
      '[image image/png, 30 bytes, not shown]',
      '[resource file:///a.txt]',
      'embedded text',
      '[resource file:///b.bin application/octet-stream, 12 bytes, not shown]',
    ]);
  });

  it('passes a result through the ingress text layers', async () => {
    expect(await t.apply('mcp_fx_echo', { text: 'the key is sk-test-q1w2e3' })).toMatchObject({ ok: true, content: 'the key is [REDACTED test]' });
  });

  it('withholds a result that holds a remembered secret (the kernel screens MCP results too)', async () => {
    const session = t.session();
    tracker.remember(session, 'Zq9-remembered-value-77', ['test']);
    const result = await t.apply('mcp_fx_echo', { text: 'here: Zq9-remembered-value-77' }, { session });
    expect(result).toMatchObject({ ok: false, stage: 'security' });
    expect(JSON.stringify(result)).not.toContain('Zq9-remembered-value-77');
    expect(await t.apply('mcp_fx_echo', { text: 'harmless' }, { session })).toMatchObject({ ok: true, content: 'harmless' });
  });

  it('offers a server\'s resources as two read tools whose answers pass the text layers', async () => {
    expect(tool('mcp_fx_list_resources')).toMatchObject({ tier: 'read', kind: 'read', egress: false });
    expect(tool('mcp_fx_read_resource')?.inputSchema).toMatchObject({ required: ['uri'] });
    const listed = await t.apply('mcp_fx_list_resources', {});
    expect(listed).toMatchObject({ ok: true });
    expect(listed.ok && listed.content.split('\n')).toEqual(['note://guide — guide · text/plain · How the notes are kept.', 'note://keys — keys · text/plain', 'note://logo — logo · image/png']);
    expect(await t.apply('mcp_fx_read_resource', { uri: 'note://guide' })).toMatchObject({ ok: true, content: '[resource note://guide]\nNotes are kept one per file.' });
    expect(await t.apply('mcp_fx_read_resource', { uri: 'note://logo' })).toMatchObject({ ok: true, content: '[resource note://logo image/png, 24 bytes, not shown]' });
    const keys = await t.apply('mcp_fx_read_resource', { uri: 'note://keys' });
    expect(keys).toMatchObject({ ok: true, content: '[resource note://keys]\ndeploy key: [REDACTED test] and nothing else' });
    const session = t.session();
    tracker.remember(session, 'nothing else', ['test']);
    const withheld = await t.apply('mcp_fx_read_resource', { uri: 'note://keys' }, { session });
    expect(withheld).toMatchObject({ ok: false, stage: 'security' });
    expect(JSON.stringify(withheld)).not.toContain('nothing else');
    const missing = await t.apply('mcp_fx_read_resource', { uri: 'note://nope' });
    expect(missing).toMatchObject({ ok: false, envelope: { code: expect.stringMatching(/^MCP_/) } });
  });

  it('forwards the server\'s progress notifications to the call', async () => {
    const definition = t.kernel.primitives.get('mcp_fx_progress')!;
    const seen: unknown[] = [];
    const result = await definition.handler({}, {
      session: 's',
      callId: 'c',
      workspace: t.workspace,
      signal: new AbortController().signal,
      outputCap: 100_000,
      taint: [],
      progress: (update) => seen.push(update),
      apply: () => Promise.reject(new Error('no nested calls')),
    });
    expect(result).toMatchObject({ content: 'progressed' });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
  });

  it('cancels a call when its signal aborts: the server is told, the call ends at once', async () => {
    const controller = new AbortController();
    const before = marks(marker).length;
    const pending = t.kernel.apply({ session: 'test', name: 'mcp_fx_slow', args: { ms: 20_000 }, origin: 'model', signal: controller.signal });
    await until(() => marks(marker).slice(before).includes('slow started'), 5000, 'the slow call');
    const started = Date.now();
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, envelope: { category: 'CANCELLED' } });
    expect(Date.now() - started).toBeLessThan(1000);
    await until(() => marks(marker).slice(before).includes('slow cancelled'), 5000, 'the server to see the cancellation');
  });

  it('ends a call the server never answers with a TIMEOUT envelope', async () => {
    const started = Date.now();
    const result = await t.apply('mcp_fx_hang', {});
    expect(result).toMatchObject({ ok: false, envelope: { category: 'TIMEOUT' } });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await t.apply('mcp_fx_read_note', { id: 'after' })).toMatchObject({ ok: true });
  });

  it('follows tools/list_changed', async () => {
    expect(tool('mcp_fx_late')).toBeUndefined();
    expect(await t.apply('mcp_fx_add_tool', {})).toMatchObject({ ok: true });
    await until(() => tool('mcp_fx_late') !== undefined, 5000, 'the late tool');
    expect(await t.apply('mcp_fx_late', {})).toMatchObject({ ok: true, content: 'late' });
  });

  it('makes a server killed mid-call an OUTCOME_UNKNOWN envelope for a mutate call, restarts it, and the next call works', async () => {
    const pid = await pidOf();
    const before = marks(marker).length;
    const pending = t.apply('mcp_fx_slow', { ms: 20_000 });
    await until(() => marks(marker).slice(before).includes('slow started'), 5000, 'the slow call');
    process.kill(pid, 'SIGKILL');
    expect(await pending).toMatchObject({ ok: false, envelope: { category: 'OUTCOME_UNKNOWN', code: 'MCP_OUTCOME_UNKNOWN' } });
    // A down server lists no tools; a call by name waits for the restart.
    const next = await pidOf();
    expect(next).not.toBe(pid);
    expect(tool('mcp_fx_read_note')).toBeDefined();
  });

  it('makes a read call whose server died UPSTREAM_UNAVAILABLE, retryable', async () => {
    const pid = await pidOf();
    const pending = t.apply('mcp_fx_hang', {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(pid, 'SIGKILL');
    expect(await pending).toMatchObject({ ok: false, envelope: { category: 'UPSTREAM_UNAVAILABLE', code: 'MCP_CONNECTION_LOST', retryable: 'after_delay' } });
    expect(await pidOf()).not.toBe(pid);
  });

  it('restarts a server that hangs as a whole after a call timed out', async () => {
    const pid = await pidOf();
    const before = marks(marker).length;
    expect(await t.apply('mcp_fx_freeze', {})).toMatchObject({ ok: false, envelope: { category: 'TIMEOUT' } });
    await until(() => marks(marker).slice(before).some((line) => line.startsWith('started')), 10_000, 'the restart');
    const next = await pidOf();
    expect(next).not.toBe(pid);
  });
});
