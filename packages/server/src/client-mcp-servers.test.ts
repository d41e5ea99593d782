import { describe, expect, it } from 'vitest';
import { clientMcpServers } from './client-mcp-servers.js';

describe('clientMcpServers', () => {
  it('reads ACP stdio and HTTP servers, their env and headers as tables, and leaves SSE and odd shapes out', () => {
    expect(
      clientMcpServers([
        { name: 'files', command: 'npx', args: ['-y', 'srv', 3], env: [{ name: 'ROOT', value: '/notes' }, { name: 'BAD' }] },
        { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer t' }] },
        { type: 'sse', name: 'old', url: 'https://sse.example.com', headers: [] },
        { name: 'nothing' },
        { command: 'nameless' },
      ]),
    ).toEqual([
      { name: 'files', command: 'npx', args: ['-y', 'srv'], env: { ROOT: '/notes' } },
      { name: 'web', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
    ]);
  });
});
