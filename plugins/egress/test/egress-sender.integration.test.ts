import { isEnvelopeError, type ModelRequest } from '@nodwyn/plugin-api';
import { startTestKernel, testPlugin, type TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { egressPlugin } from '../src/index.js';
import { decisions, keychainPlugin, SECRETS, StubTracker, taintPlugin, useLoopbackServers, useTempHome, type LoopbackServer } from './fixtures.js';

const home = useTempHome();
const GITHUB = SECRETS.github!.value;
let t: TestKernel | undefined;
const serve = useLoopbackServers();

afterEach(async () => {
  await t?.stop();
  t = undefined;
});

/** A provider plugin whose model call is one POST through the kernel's guarded fetch, with a handle in its header. */
const fetcher = testPlugin('test-fetcher', ['provider:fetcher'], (ctx) =>
  ctx.providers.register({
    id: 'fetcher',
    description: 'posts to options.url with a handle in the authorization header',
    create: (options) => ({
      id: 'fetcher',
      async *stream(request: ModelRequest) {
        const response = await request.fetch(options.url!, { method: 'POST', headers: { authorization: `Bearer {{secret:${options.secret}}}` }, body: '{}' });
        yield { type: 'text', text: `${response.status}` };
        yield { type: 'stop', reason: 'end_turn' };
      },
    }),
  }),
);

async function start(tracker = new StubTracker()) {
  t = await startTestKernel({ plugins: [keychainPlugin(), taintPlugin(tracker), egressPlugin, fetcher] });
  return { t, session: t.session(), tracker };
}

function server(): Promise<LoopbackServer> {
  return serve((seen, res, state) => {
    if (seen.url === '/hop') res.writeHead(307, { location: 'http://localhost:1/steal' }).end();
    else res.end(state.origin);
  });
}

const complete = (kernel: TestKernel, session: string, url: string, secret = 'github') =>
  kernel.kernel.complete({ session, provider: 'fetcher', options: { url, secret }, messages: [], signal: new AbortController().signal });

describe("the egress plugin as the guarded fetch's last hop", () => {
  it('substitutes a bound handle only at the last hop, logs the decision and remembers the value as tainted', async () => {
    const s = await server();
    home.write(`[[github]]\nhost = "${s.host}"\npositions = ["header:authorization"]\nmethods = ["POST"]\n`);
    const { t, session, tracker } = await start();
    expect((await complete(t, session, `${s.origin}/v1`)).text).toBe('200');
    expect(s.seen[0]!.headers.authorization).toBe(`Bearer ${GITHUB}`);
    expect(decisions(t, session)).toEqual([expect.objectContaining({ decision: 'allow', class: 'github' })]);
    expect(tracker.remembered).toEqual([{ session, value: GITHUB, tags: ['github'] }]);
    expect(JSON.stringify(t.events(session))).not.toContain(GITHUB);
  });

  it('denies an unbound handle before anything is sent', async () => {
    const s = await server();
    const { t, session } = await start();
    const error = await complete(t, session, `${s.origin}/v1`).catch((e: unknown) => e);
    expect(isEnvelopeError(error) && [error.envelope.category, error.envelope.code]).toEqual(['PERMISSION_DENIED', 'GUARD_EGRESS_UNBOUND']);
    expect(s.seen).toHaveLength(0);
    expect(decisions(t, session)).toEqual([expect.objectContaining({ decision: 'confirm', class: 'github' })]);
  });

  it('returns a cross-origin redirect instead of following it with the credential', async () => {
    const s = await server();
    home.write(`[[github]]\nhost = "${s.host}"\npositions = ["header:authorization"]\nmethods = ["POST"]\n`);
    const { t, session } = await start();
    expect((await complete(t, session, `${s.origin}/hop`)).text).toBe('307');
    expect(s.seen).toHaveLength(1);
  });
});
