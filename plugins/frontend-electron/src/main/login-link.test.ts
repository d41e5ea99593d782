import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { fakeNodwyn } from '../../test/fake-nodwyn.js';
import { parseServeFile } from './daemon-endpoint.js';
import { fetchLoginLink } from './login-link.js';
import { nodeDaemonSpawner } from './node-daemon-spawner.js';

describe('fetchLoginLink (against a real 127.0.0.1 server)', () => {
  it('POSTs with the bearer token and answers the link; a wrong token is an envelope', async () => {
    const home = mkdtempSync(join(tmpdir(), 'nodwyn-home-'));
    const cli = fakeNodwyn();
    const child = nodeDaemonSpawner(cli.command)(home);
    try {
      await child.ready;
      const endpoint = parseServeFile(readFileSync(join(home, 'serve.json'), 'utf8'));
      if (!endpoint) throw new Error('no serve.json');
      const link = await fetchLoginLink(endpoint, (url, init) => fetch(url, init));
      expect(link.startsWith(`${new URL(endpoint.http).origin}/login?t=once-`)).toBe(true);
      const refused = await fetchLoginLink({ ...endpoint, token: 'wrong' }, (url, init) => fetch(url, init)).catch((error: unknown) => error);
      expect(isEnvelopeError(refused) && refused.envelope).toMatchObject({ code: 'DESKTOP_LOGIN_LINK_FAILED', category: 'UPSTREAM_UNAVAILABLE' });
      expect(JSON.stringify(isEnvelopeError(refused) && refused.envelope)).not.toContain(endpoint.token);
    } finally {
      child.stop();
      await child.exited;
      rmSync(home, { recursive: true, force: true });
      rmSync(cli.dir, { recursive: true, force: true });
    }
  });

  it('refuses a link on another origin', async () => {
    const endpoint = { url: 'ws://127.0.0.1:1/acp', http: 'http://127.0.0.1:1/', token: 't', pid: 1 };
    const answer = { ok: true, status: 200, json: async () => ({ url: 'https://evil.example/login?t=x', expiresInMs: 1000 }) };
    await expect(fetchLoginLink(endpoint, async () => answer)).rejects.toMatchObject({ envelope: { code: 'DESKTOP_LOGIN_LINK_FAILED' } });
  });
});
