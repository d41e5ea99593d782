import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkspaceTrust } from '@nodwyn/plugin-api';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpPlugin } from '../index.js';
import { marks, runMcpCommand, STDIO_FIXTURE, until } from '../../test/client-support.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-mcp-repo-')));
const workspace = join(root, 'workspace');
const home = join(root, 'home');
const marker = join(root, 'marks.log');
const db = join(home, 'log.db');
const key = randomBytes(32);
mkdirSync(workspace);
mkdirSync(home);
process.env.NODWYN_HOME = home;

function writeMcpJson(env: Record<string, string> = {}): void {
  const servers = { repo: { command: process.execPath, args: [STDIO_FIXTURE], env: { MARKER: marker, ...env } } };
  writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
}

let t: TestKernel | undefined;
const start = async (trust: WorkspaceTrust) => {
  t = await startTestKernel({ plugins: [mcpPlugin], workspace, dataDir: home, dbPath: db, key, trust });
  return t;
};
const listed = async (k: TestKernel) => ({ servers: JSON.parse((await runMcpCommand(k, ['list'], { json: true })).out) as { name: string; source: string; approval: string; approved: boolean; status: string; tools: number }[] });
const toolNames = (k: TestKernel) => k.kernel.primitives.list().map((p) => p.name).filter((name) => name.startsWith('mcp_'));

afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("a repository's .mcp.json", () => {
  it('is ignored in a workspace that is not trusted, even when approved', async () => {
    writeMcpJson();
    const k = await start('untrusted');
    expect((await runMcpCommand(k, ['approve', 'repo'], { yes: true })).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(marks(marker)).toEqual([]);
    expect(toolNames(k)).toEqual([]);
    expect((await listed(k)).servers).toEqual([expect.objectContaining({ name: 'repo', source: 'repository', status: 'untrusted', approval: 'approved', approved: true })]);
  });

  it('does not spawn a server nobody approved in a trusted workspace, refuses approval without a person or --yes, and starts it once approved', async () => {
    writeMcpJson({ VERSION: '2' });
    const k = await start('trusted');
    expect((await listed(k)).servers).toEqual([expect.objectContaining({ name: 'repo', status: 'unapproved', approval: 'required', approved: false, tools: 0 })]);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(marks(marker)).toEqual([]);
    const refused = await runMcpCommand(k, ['approve', 'repo'], { json: true });
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.err)).toMatchObject({ category: 'CONFIRMATION_REQUIRED', code: 'MCP_APPROVAL_REQUIRED' });
    const unknown = await runMcpCommand(k, ['approve', 'nope'], { json: true, yes: true });
    expect(JSON.parse(unknown.err)).toMatchObject({ category: 'NOT_FOUND', code: 'MCP_SERVER_UNKNOWN' });
    expect((await runMcpCommand(k, ['approve', 'repo'], { yes: true, json: true })).code).toBe(0);
    // Approved, it starts at once: no restart needed.
    await until(() => toolNames(k).includes('mcp_repo_read_note'), 15_000, 'the server just approved');
  });

  it('starts an approved server in a trusted workspace, offers its tools from the last listing at the next start, and asks again when its definition changes', async () => {
    const k = await start('trusted');
    await until(() => toolNames(k).includes('mcp_repo_read_note'), 15_000, 'the approved server');
    expect(await k.apply('mcp_repo_read_note', { id: 'r' })).toMatchObject({ ok: true, content: 'note r' });
    expect((await listed(k)).servers).toEqual([expect.objectContaining({ name: 'repo', status: 'ready', approval: 'approved' })]);
    await k.stop();
    // The next start offers the tools it listed at once, before the server answered again; a call waits for it.
    const warm = await start('trusted');
    expect(toolNames(warm)).toContain('mcp_repo_read_note');
    expect(await warm.apply('mcp_repo_read_note', { id: 'w' })).toMatchObject({ ok: true, content: 'note w' });
    await warm.stop();
    t = undefined;
    writeMcpJson({ VERSION: '3' });
    const before = marks(marker).length;
    const again = await start('trusted');
    expect((await listed(again)).servers).toEqual([expect.objectContaining({ name: 'repo', status: 'unapproved', approval: 'required' })]);
    expect(marks(marker).length).toBe(before);
  });
});
