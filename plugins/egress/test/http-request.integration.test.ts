import type { ApplyResult } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { egressPlugin } from '../src/index.js';
import { expectNoValue, SECRETS, startEgress, useLoopbackServers, useTempHome } from './fixtures.js';

const home = useTempHome();
const GITHUB = SECRETS.github!.value;
let t: TestKernel | undefined;
const server = useLoopbackServers();

afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function bind(cls: string, host: string, positions: string[], methods = ['GET']): void {
  home.write(`[[${cls}]]\nhost = "${host}"\npositions = ${JSON.stringify(positions)}\nmethods = ${JSON.stringify(methods)}\n`);
}

function contentOf(result: ApplyResult): string {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.envelope)}`);
  return result.content;
}

function envelopeOf(result: ApplyResult) {
  if (result.ok) throw new Error(`expected a failure, got ${result.content}`);
  return result.envelope;
}

/** A port nothing listens on: bound, then closed again. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('http_request', () => {
  it('registers exactly what its manifest provides, and classifies reads and writes by method', async () => {
    t = await startEgress();
    const mine = t.kernel.primitives.list().filter((p) => p.owner === egressPlugin.manifest.name);
    expect(mine.map((p) => [p.name, p.tier, p.visibility, p.egress])).toEqual([['http_request', 'mutate', 'model', true]]);
    expect(t.kernel.commands.get('bind').owner).toBe(egressPlugin.manifest.name);
    const s = await server();
    const session = t.session();
    await t.apply('http_request', { method: 'GET', url: s.origin }, { session });
    // A DELETE is mutate, not destructive: it runs without a confirmation.
    expect((await t.apply('http_request', { method: 'DELETE', url: s.origin }, { session })).ok).toBe(true);
    expect(s.seen.map((r) => r.method)).toEqual(['GET', 'DELETE']);
  });

  it('answers malformed arguments with VALIDATION_FAILED naming the JSON path', async () => {
    t = await startEgress();
    const cases: [unknown, string][] = [
      [{ __not_an_argument__: [1] }, '$.method'],
      [{ method: 'GET', url: 'ftp://example.com/' }, '$.url'],
      [{ method: 'GET', url: 'https://u:p@example.com/' }, '$.url'],
      [{ method: 'GET', url: 'https://example.com/{{secret:github}}' }, '$.url'],
      [{ method: 'GET', url: 'https://example.com/', body: 'x' }, '$.body'],
      [{ method: 'POST', url: 'https://example.com/', headers: { Host: 'evil.example' } }, '$.headers.Host'],
      [{ method: 'POST', url: 'https://example.com/', body: { '{{secret:github}}': 1 } }, '$.body["{{secret:github}}"]'],
      [{ method: 'GET', url: 'https://example.com/', headers: { Authorization: 'x' }, basic_auth: { user: 'a', password: 'b' } }, '$.headers.Authorization'],
    ];
    for (const [args, path] of cases) {
      const env = envelopeOf(await t.apply('http_request', args));
      expect([env.category, env.failed_parameter], JSON.stringify(args)).toEqual(['VALIDATION_FAILED', path]);
    }
  });

  it('follows a same-origin redirect with the credential and reports it', async () => {
    const s = await server((seen, res) => (seen.url === '/start' ? res.writeHead(302, { Location: '/final' }).end() : res.end('arrived')));
    bind('github', s.host, ['header:Authorization']);
    t = await startEgress();
    const content = contentOf(await t.apply('http_request', { method: 'GET', url: `${s.origin}/start`, headers: { Authorization: '{{secret:github}}' } }));
    expect(s.seen.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/start', GITHUB],
      ['/final', GITHUB],
    ]);
    expect(content).toMatch(/^HTTP 200\n[\s\S]*\[followed 1 same-origin redirect\]\n\narrived$/);
  });

  it('does not follow a cross-origin redirect: the second server receives no request at all', async () => {
    const other = await server();
    const s = await server((_seen, res) => res.writeHead(307, { Location: `${other.origin}/steal` }).end());
    bind('github', s.host, ['header:Authorization', 'body:$.token'], ['POST']);
    t = await startEgress();
    const result = await t.apply('http_request', { method: 'POST', url: `${s.origin}/login`, headers: { Authorization: '{{secret:github}}' }, body: { token: '{{secret:github}}' } });
    const content = contentOf(result);
    expect(s.seen).toHaveLength(1);
    expect(other.seen).toHaveLength(0);
    expect(content).toContain('HTTP 307');
    expect(content).toContain(`location: ${other.origin}/steal`);
    expect(content).toContain(`The redirect to ${other.origin} was not followed`);
  });

  it('scrubs a secret the server echoes back, in every common encoding, from body and headers', async () => {
    const value = Buffer.from(GITHUB);
    const echo = [GITHUB, value.toString('base64'), value.toString('hex'), encodeURIComponent(GITHUB), JSON.stringify({ auth: `Bearer ${GITHUB}` })].join('\n');
    const s = await server((_seen, res) => res.writeHead(401, { 'Content-Type': 'text/plain', 'WWW-Authenticate': `Bearer realm="${GITHUB}"` }).end(echo));
    bind('github', s.host, ['header:Authorization']);
    t = await startEgress();
    const session = t.session();
    const result = await t.apply('http_request', { method: 'GET', url: s.origin, headers: { Authorization: 'Bearer {{secret:github}}' } }, { session });
    const content = contentOf(result);
    expect(content.split('[REDACTED github]').length - 1).toBeGreaterThanOrEqual(6);
    expectNoValue(GITHUB, content, result, t.events(session));
  });

  it('scrubs the base64 of user:password when basic auth carried a secret and the server echoes the header', async () => {
    const s = await server((seen, res) => res.end(`you sent ${seen.headers.authorization}`));
    bind('stripe', s.host, ['basic']);
    t = await startEgress();
    const content = contentOf(await t.apply('http_request', { method: 'GET', url: s.origin, basic_auth: { user: 'me', password: '{{secret:stripe}}' } }));
    const pair = Buffer.from(`me:${SECRETS.stripe!.value}`).toString('base64');
    expect(s.seen[0]!.headers.authorization).toBe(`Basic ${pair}`);
    expect(content).toContain('you sent Basic [REDACTED stripe]');
    expect(content).not.toContain(pair);
  });

  it('scrubs a secret split by the body cut, leaving no prefix of it behind', async () => {
    // The secret straddles the cut at 64 KiB, so a naive cut would show its first half.
    const s = await server((_seen, res) => res.end('a'.repeat(64 * 1024 - 10) + GITHUB + 'b'.repeat(200_000)));
    bind('github', s.host, ['header:Authorization']);
    t = await startEgress();
    const content = contentOf(await t.apply('http_request', { method: 'GET', url: s.origin, headers: { Authorization: '{{secret:github}}' } }));
    expect(content).toContain('[body cut by http_request');
    expect(content).not.toContain(GITHUB.slice(0, 8));
  });

  it('drops a partial secret where the read stopped, even when scrubbing shrank the text before it', async () => {
    // Every copy before the read limit becomes a shorter marker, pulling the cut-off copy into view.
    const s = await server((_seen, res) => res.end(GITHUB.repeat(3000)));
    bind('github', s.host, ['header:Authorization']);
    t = await startEgress();
    const content = contentOf(await t.apply('http_request', { method: 'GET', url: s.origin, headers: { Authorization: '{{secret:github}}' } }));
    expect(content).toContain('[REDACTED github]');
    expect(content).not.toContain(GITHUB.slice(0, 4));
  });

  it('fails with TRANSPORT_FAILED, never quoting the secret it put in the query', async () => {
    const port = await closedPort();
    bind('github', `127.0.0.1:${port}`, ['query:key']);
    t = await startEgress();
    const session = t.session();
    const result = await t.apply('http_request', { method: 'GET', url: `http://127.0.0.1:${port}/x?key={{secret:github}}` }, { session });
    const env = envelopeOf(result);
    expect([env.category, env.code]).toEqual(['TRANSPORT_FAILED', 'HTTP_TRANSPORT_FAILED']);
    expect(env.remediation).toContain('ECONNREFUSED');
    expectNoValue(GITHUB, result, t.events(session));
  });

  it('fails with TIMEOUT when the server does not answer within timeout_ms', async () => {
    const s = await server(() => undefined);
    t = await startEgress();
    const env = envelopeOf(await t.apply('http_request', { method: 'GET', url: s.origin, timeout_ms: 200 }));
    expect([env.category, env.code]).toEqual(['TIMEOUT', 'HTTP_TIMEOUT']);
  });

  it('fails with HTTP_REQUEST_INVALID, scrubbed, when a revealed value cannot go in a header', async () => {
    const s = await server();
    home.write(`[[github]]\nhost = "${s.host}"\npositions = ["header:X-Key"]\nmethods = ["GET"]\n`);
    t = await startEgress();
    // The value is fine; the newline written around the handle is what fetch refuses.
    const result = await t.apply('http_request', { method: 'GET', url: s.origin, headers: { 'X-Key': 'a\n{{secret:github}}' } });
    expect(envelopeOf(result).code).toBe('HTTP_REQUEST_INVALID');
    expectNoValue(GITHUB, result);
    expect(s.seen).toHaveLength(0);
  });
});
