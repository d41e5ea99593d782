import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliSandbox } from './cli.js';

const FIXTURE = fileURLToPath(new URL('../../../plugins/mcp/src/client/fixtures/stdio-server.mjs', import.meta.url));

interface Row {
  name: string;
  source: string;
  approval: string;
  approved: boolean;
  status: string;
  tools: number;
  tool_names: string[];
}

let box: CliSandbox;

const list = () => {
  const out = box.run(['mcp', 'list', '--json']);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Row[];
};
const row = (name: string) => list().find((r) => r.name === name);

beforeAll(() => {
  box = new CliSandbox();
  const server = `command = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE)}]\n`;
  box.write(join(box.home, 'config.toml'), `[plugins."@nodwyn/plugin-mcp".servers.notes]\n${server}timeout_ms = 5000\n`);
  box.write('.mcp.json', JSON.stringify({ mcpServers: { repo: { command: process.execPath, args: [FIXTURE] } } }));
  // Something for `nodwyn trust` to review: trust is what lets .mcp.json load at all.
  box.write('.nodwyn/config.toml', '# the repository\'s nodwyn settings\n');
});

afterAll(() => box.remove());

describe('nodwyn mcp list and approve', () => {
  it('lists the person\'s server with its tools, and ignores .mcp.json in an untrusted workspace', () => {
    const listed = list();
    expect(listed.find((r) => r.name === 'notes')).toMatchObject({ source: 'config', approval: 'not_required', approved: true, status: 'ready' });
    expect(listed.find((r) => r.name === 'notes')?.tool_names).toContain('mcp_notes_read_note');
    expect(listed.find((r) => r.name === 'repo')).toMatchObject({ source: 'repository', status: 'untrusted', approved: false, tools: 0 });
  }, 60_000);

  it('keeps an unapproved .mcp.json server stopped in a trusted workspace until a person approves it', () => {
    expect(box.run(['trust', '--yes']).code).toBe(0);
    expect(row('repo')).toMatchObject({ status: 'unapproved', approval: 'required', tools: 0 });
    const refused = box.run(['mcp', 'approve', 'repo', '--json']);
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stderr)).toMatchObject({ category: 'CONFIRMATION_REQUIRED', code: 'MCP_APPROVAL_REQUIRED' });
    const approved = box.run(['mcp', 'approve', 'repo', '--yes', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ approved: 'repo', trusted: true });
    expect(row('repo')).toMatchObject({ status: 'ready', approval: 'approved' });
    expect(row('repo')?.tools).toBeGreaterThan(0);
  }, 60_000);

  it('runs an MCP tool in a turn through the guard', () => {
    const script = box.script([{ toolCalls: [{ name: 'mcp_notes_read_note', args: { id: 'n1' } }] }, { text: 'done' }]);
    const out = box.run(['run', 'read the note', '--provider', 'scripted', '--script', script, '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('note n1');
  }, 60_000);

  it('redacts a secret in an MCP result, and withholds a result holding a keychain secret', async () => {
    const pat = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';
    const echoed = box.run(['run', 'echo', '--provider', 'scripted', '--script', box.script([{ toolCalls: [{ name: 'mcp_notes_echo', args: { text: `token ${pat}` } }] }, { text: 'done' }]), '--json']);
    expect(echoed.code, echoed.stderr).toBe(0);
    expect(echoed.stdout).toContain('[REDACTED');
    expect(echoed.stdout + echoed.stderr).not.toContain(pat);

    // The server holds a value the keychain also holds (its env, set by the person): the result is withheld.
    const value = 'sk-live-mcp-9f3b27c4e1a84d6b';
    expect(box.run(['secret', 'add', 'leaky', '--class', 'leaky-token'], value).code).toBe(0);
    const server = `command = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE)}]\nenv = { LEAK = ${JSON.stringify(value)} }\n`;
    box.write(join(box.home, 'config.toml'), `[plugins."@nodwyn/plugin-mcp".servers.notes]\n${server}timeout_ms = 5000\n`);
    for (const encoding of ['plain', 'base64', 'hex']) {
      const leaked = box.run(['run', 'read env', '--provider', 'scripted', '--script', box.script([{ toolCalls: [{ name: 'mcp_notes_env_value', args: { name: 'LEAK', encoding } }] }, { text: 'done' }]), '--json']);
      for (const form of [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('hex')]) expect(leaked.stdout + leaked.stderr).not.toContain(form);
      expect(leaked.stdout, encoding).toContain('SECURITY_OUTPUT_WITHHELD');
    }
  }, 90_000);

  it('keeps nodwyn mcp serve beside list and approve', () => {
    const help = box.run(['mcp', '--help']);
    expect(help.stdout).toMatch(/serve/);
    expect(help.stdout).toMatch(/list/);
    expect(help.stdout).toMatch(/approve/);
  });
});
