import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { personServers, repositoryServers } from './server-config.js';
import { specDigest } from './server-spec.js';

describe("the person's servers", () => {
  it('reads stdio and HTTP servers, with the workspace as the default folder and a 60 s timeout', () => {
    const { servers, broken } = personServers(
      { servers: { files: { command: 'npx', args: ['-y', 'srv'], env: { A: '1' } }, web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer {{secret:t}}' }, timeout_ms: 5000, read_only_hints: false } } },
      '/ws',
    );
    expect(broken).toEqual([]);
    expect(servers).toEqual([
      { name: 'files', source: 'config', timeoutMs: 60_000, readOnlyHints: true, transport: { kind: 'stdio', command: 'npx', args: ['-y', 'srv'], env: { A: '1' }, cwd: '/ws' } },
      { name: 'web', source: 'config', timeoutMs: 5000, readOnlyHints: false, transport: { kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer {{secret:t}}' } } },
    ]);
  });

  it('keeps a broken entry out, with where and why, and the others in', () => {
    const { servers, broken } = personServers({ servers: { both: { command: 'a', url: 'https://x.example' }, ftp: { url: 'ftp://x.example' }, ok: { command: 'a' } } }, '/ws');
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    expect(broken.map((b) => [b.name, b.error.envelope.code, b.error.envelope.failed_parameter])).toEqual([
      ['both', 'MCP_CONFIG_INVALID', '$.plugins["@nodwyn/plugin-mcp"].servers.both'],
      ['ftp', 'MCP_CONFIG_INVALID', '$.plugins["@nodwyn/plugin-mcp"].servers.ftp.url'],
    ]);
  });
});

describe("a repository's .mcp.json", () => {
  it('reads the common mcpServers form; a changed definition has another digest', () => {
    const ws = mkdtempSync(join(tmpdir(), 'nodwyn-mcp-json-'));
    writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'node', args: ['s.mjs'] } } }));
    const [first] = repositoryServers(ws).servers;
    expect(first).toMatchObject({ name: 'repo', source: 'repository', transport: { kind: 'stdio', command: 'node', args: ['s.mjs'], cwd: ws } });
    writeFileSync(join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { repo: { command: 'node', args: ['s.mjs', '--evil'] } } }));
    const [second] = repositoryServers(ws).servers;
    expect(specDigest(second!)).not.toBe(specDigest(first!));
  });

  it('reports a file that is not JSON', () => {
    const ws = mkdtempSync(join(tmpdir(), 'nodwyn-mcp-json-'));
    writeFileSync(join(ws, '.mcp.json'), '{ not json');
    expect(repositoryServers(ws)).toMatchObject({ servers: [], broken: [{ name: '*', source: 'repository' }] });
  });
});
