import type { ApplyResult, ModelRequest } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { egressPlugin } from '../src/index.js';
import { decisions, expectNoValue, keychainPlugin, SECRETS, startEgress, StubTracker, taintPlugin, useLoopbackServers, useTempHome, type LoopbackServer } from './fixtures.js';

const home = useTempHome();
const GITHUB = SECRETS.github!.value;
let t: TestKernel | undefined;
const server = useLoopbackServers();

afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** A server that redirects `/api/start` (or `/login`) with `status` to `to`, and answers anything else with "arrived". */
function redirecting(status: number, from: string, to: string): Promise<LoopbackServer> {
  return server((seen, res) => (seen.url === from ? res.writeHead(status, { Location: to }).end() : res.end('arrived')));
}

function bind(host: string, positions: string[], methods: string[], pathPrefix?: string): void {
  const prefix = pathPrefix === undefined ? '' : `path_prefix = "${pathPrefix}"\n`;
  home.write(`[[github]]\nhost = "${host}"\n${prefix}positions = ${JSON.stringify(positions)}\nmethods = ${JSON.stringify(methods)}\n`);
}

function contentOf(result: ApplyResult): string {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.envelope)}`);
  return result.content;
}

/** Every request after the first one the guard checked: none of them may carry the secret. */
function laterHops(s: LoopbackServer) {
  return s.seen.slice(1);
}

describe('http_request checks the binding on every same-origin redirect hop', () => {
  it('does not carry a secret bound to /api on a 302 to /elsewhere', async () => {
    const s = await redirecting(302, '/api/start', '/elsewhere');
    bind(s.host, ['header:Authorization'], ['GET'], '/api');
    t = await startEgress();
    const session = t.session();
    const content = contentOf(await t.apply('http_request', { method: 'GET', url: `${s.origin}/api/start`, headers: { Authorization: '{{secret:github}}' } }, { session }));
    expect(s.seen.map((r) => r.url)).toEqual(['/api/start']);
    expectNoValue(GITHUB, laterHops(s), content);
    expect(content).toContain('HTTP 302');
    expect(content).toContain('The redirect to /elsewhere (GET) was not followed: it would send a github secret to');
    expect(decisions(t, session)).toEqual([
      expect.objectContaining({ decision: 'allow', class: 'github' }),
      expect.objectContaining({ decision: 'confirm', class: 'github', hop: true, destination: expect.objectContaining({ path: '/elsewhere', method: 'GET' }) }),
    ]);
  });

  it('does not carry a secret bound for POST only after a 303 turns the request into a GET', async () => {
    const s = await redirecting(303, '/login', '/next');
    bind(s.host, ['header:Authorization'], ['POST']);
    t = await startEgress();
    const content = contentOf(await t.apply('http_request', { method: 'POST', url: `${s.origin}/login`, headers: { Authorization: '{{secret:github}}' }, body: { a: 1 } }));
    expect(s.seen.map((r) => [r.method, r.url])).toEqual([['POST', '/login']]);
    expectNoValue(GITHUB, laterHops(s), content);
    expect(content).toContain('The redirect to /next (GET) was not followed');
  });

  it('does not carry a secret in the body or a header on a 307 to a path the binding does not cover', async () => {
    const s = await redirecting(307, '/api/start', '/upload');
    bind(s.host, ['header:Authorization', 'body:$.token'], ['POST'], '/api');
    t = await startEgress();
    const content = contentOf(
      await t.apply('http_request', { method: 'POST', url: `${s.origin}/api/start`, headers: { Authorization: '{{secret:github}}' }, body: { token: '{{secret:github}}' } }),
    );
    expect(s.seen.map((r) => r.url)).toEqual(['/api/start']);
    expect(s.seen[0]!.body).toContain(GITHUB);
    expectNoValue(GITHUB, laterHops(s), content);
    expect(content).toContain('The redirect to /upload (POST) was not followed');
  });

  it('still follows a hop the binding covers, with the secret, and a hop that carries no secret at all', async () => {
    const s = await redirecting(307, '/api/start', '/api/final');
    bind(s.host, ['header:Authorization', 'body:$.token'], ['POST'], '/api');
    t = await startEgress();
    const content = contentOf(await t.apply('http_request', { method: 'POST', url: `${s.origin}/api/start`, headers: { Authorization: '{{secret:github}}' }, body: { token: '{{secret:github}}' } }));
    expect(s.seen.map((r) => [r.method, r.url, r.headers.authorization, r.body])).toEqual([
      ['POST', '/api/start', GITHUB, JSON.stringify({ token: GITHUB })],
      ['POST', '/api/final', GITHUB, JSON.stringify({ token: GITHUB })],
    ]);
    expect(content).toContain('[followed 1 same-origin redirect]');
    const plain = await redirecting(302, '/api/start', '/anywhere');
    expect(contentOf(await t.apply('http_request', { method: 'GET', url: `${plain.origin}/api/start` }))).toMatch(/arrived$/);
    expect(plain.seen.map((r) => r.url)).toEqual(['/api/start', '/anywhere']);
  });
});

const fetcher = testPlugin('test-fetcher', ['provider:fetcher'], (ctx) =>
  ctx.providers.register({
    id: 'fetcher',
    description: 'sends options.method (default POST) to options.url with a handle in the authorization header',
    create: (options) => ({
      id: 'fetcher',
      async *stream(request: ModelRequest) {
        const method = options.method ?? 'POST';
        const response = await request.fetch(options.url!, { method, headers: { authorization: 'Bearer {{secret:github}}' }, ...(method === 'POST' ? { body: '{}' } : {}) });
        yield { type: 'text', text: `${response.status}` };
        yield { type: 'stop', reason: 'end_turn' };
      },
    }),
  }),
);

async function complete(url: string, method?: string) {
  t = await startTestKernel({ plugins: [keychainPlugin(), taintPlugin(new StubTracker()), egressPlugin, fetcher] });
  const session = t.session();
  const done = await t.kernel.complete({ session, provider: 'fetcher', options: { url, ...(method ? { method } : {}) }, messages: [], signal: new AbortController().signal });
  return { text: done.text, decisions: decisions(t, session) };
}

describe("the guarded fetch's last hop checks the binding on every same-origin redirect hop", () => {
  it('does not carry a key bound to /v1 for GET on a 302 to /other', async () => {
    const s = await redirecting(302, '/v1/models', '/other');
    bind(s.host, ['header:authorization'], ['GET'], '/v1');
    const done = await complete(`${s.origin}/v1/models`, 'GET');
    expect(done.text).toBe('302');
    expect(s.seen.map((r) => r.url)).toEqual(['/v1/models']);
    expect(done.decisions.at(-1)).toMatchObject({ decision: 'confirm', hop: true, destination: { path: '/other', method: 'GET' } });
  });

  it('follows a GET to a hop its binding covers, with the key', async () => {
    const s = await redirecting(302, '/v1/models', '/v1/models/all');
    bind(s.host, ['header:authorization'], ['GET'], '/v1');
    expect((await complete(`${s.origin}/v1/models`, 'GET')).text).toBe('200');
    expect(s.seen.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/v1/models', `Bearer ${GITHUB}`],
      ['/v1/models/all', `Bearer ${GITHUB}`],
    ]);
  });
});

describe("the guarded fetch's last hop never follows a redirect of a POST", () => {
  for (const status of [307, 308, 303]) {
    it(`answers a POST's ${status} as it is, even to a hop its binding covers`, async () => {
      const s = await redirecting(status, '/v1/messages', '/v1/other');
      bind(s.host, ['header:authorization'], ['POST', 'GET'], '/v1');
      const done = await complete(`${s.origin}/v1/messages`);
      expect(done.text).toBe(String(status));
      expect(s.seen.map((r) => r.url)).toEqual(['/v1/messages']);
      expect(done.decisions.filter((d) => d.hop === true)).toEqual([]);
    });
  }
});
