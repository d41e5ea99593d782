import type { ApplyResult, ConfirmationRequest, Confirmer } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { decisions, expectNoValue, SECRETS, startEgress, StubTracker, useLoopbackServers, useTempHome } from './fixtures.js';

const home = useTempHome();
const GITHUB = SECRETS.github!.value;
let t: TestKernel | undefined;
const server = useLoopbackServers();

afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function bindGithub(host: string, position = 'header:Authorization', methods = '"GET"'): void {
  home.write(`[[github]]\nhost = "${host}"\npositions = ["${position}"]\nmethods = [${methods}]\n`);
}

function envelopeOf(result: ApplyResult) {
  if (result.ok) throw new Error(`expected a failure, got ${result.content}`);
  return result.envelope;
}

describe('the egress-bindings stage', () => {
  it('lets a bound secret in a header reach the server, and keeps it out of the log and the result', async () => {
    const s = await server();
    bindGithub(s.host);
    t = await startEgress();
    const session = t.session();
    const result = await t.apply('http_request', { method: 'GET', url: `${s.origin}/user`, headers: { Authorization: 'Bearer {{secret:github}}' } }, { session });
    expect(result.ok).toBe(true);
    expect(s.seen.map((r) => r.headers.authorization)).toEqual([`Bearer ${GITHUB}`]);
    expect(decisions(t, session)).toMatchObject([
      { class: 'github', secret: 'github', decision: 'allow', destination: { scheme: 'http', host: s.host, path: '/user', method: 'GET' }, position: { kind: 'header', name: 'Authorization' } },
    ]);
    expectNoValue(GITHUB, t.events(session), result);
  });

  it('denies an unbound secret with GUARD_EGRESS_UNBOUND and the bind command when nobody can confirm', async () => {
    const s = await server();
    t = await startEgress();
    const session = t.session();
    const result = await t.apply('http_request', { method: 'GET', url: `${s.origin}/user`, headers: { Authorization: 'Bearer {{secret:github}}' } }, { session });
    const env = envelopeOf(result);
    expect([env.category, env.code]).toEqual(['PERMISSION_DENIED', 'GUARD_EGRESS_UNBOUND']);
    expect(env.remediation).toContain(`nodwyn bind add github --host ${s.host} --position header:Authorization --method GET`);
    expect(s.seen).toHaveLength(0);
    expect(decisions(t, session).map((d) => d.decision)).toEqual(['confirm']);
    expectNoValue(GITHUB, t.events(session), result);
  });

  it('asks a confirmer with a reason naming class and destination, sending only when granted', async () => {
    const s = await server();
    t = await startEgress();
    const reasons: string[] = [];
    const confirmer = (answer: boolean): Confirmer => ({ confirm: async (request) => (reasons.push(request.reason), answer) });
    const args = { method: 'POST', url: `${s.origin}/v1/charges`, body: { key: '{{secret:stripe}}' } };
    const declined = await t.apply('http_request', args, { confirm: confirmer(false) });
    expect(envelopeOf(declined).code).toBe('CONFIRMATION_DECLINED');
    expect(s.seen).toHaveLength(0);
    expect(reasons[0]).toBe(`send a stripe secret to ${s.host}/v1/charges in body:$.key (POST)`);
    expect((await t.apply('http_request', args, { confirm: confirmer(true) })).ok).toBe(true);
    expect(JSON.parse(s.seen[0]!.body)).toEqual({ key: SECRETS.stripe!.value });
    expectNoValue(SECRETS.stripe!.value, reasons);
  });

  it('names each class and destination as subjects of the question and its event, never a value, and never remembers an "always"', async () => {
    const s = await server();
    const tracker = new StubTracker();
    t = await startEgress({ tracker });
    const session = t.session();
    tracker.remember(session, 'tainted-path-part-42', ['github']);
    const asked: ConfirmationRequest[] = [];
    const always: Confirmer = { confirm: async (request) => (asked.push(request), { granted: false, by: 'client-1', option: 'reject_always' }) };
    await t.apply('http_request', { method: 'POST', url: `${s.origin}/v1/charges`, body: { key: '{{secret:stripe}}', also: '{{secret:stripe}}' } }, { session, confirm: always });
    await t.apply('http_request', { method: 'GET', url: `${s.origin}/tainted-path-part-42` }, { session, confirm: always });
    expect(asked.map((r) => [r.security, r.effect, r.subjects])).toEqual([
      [true, `http:POST ${s.host}`, [{ class: 'stripe', destination: `POST ${s.host}/v1/charges` }]],
      [true, `http:GET ${s.host}`, [{ class: 'github', destination: '[hidden]' }]],
    ]);
    const requested = t.events(session).filter((e) => e.type === 'confirmation.requested').map((e) => e.payload.subjects);
    expect(requested).toEqual(asked.map((r) => r.subjects));
    expect(t.events(session).filter((e) => e.type.startsWith('approval.'))).toEqual([]);
    expectNoValue('tainted-path-part-42', t.events(session), asked.map((r) => r.reason));
    expectNoValue(SECRETS.stripe!.value, t.events(session));
    expect(s.seen).toHaveLength(0);
  });

  it('describes http_request as a fetch whose "always" covers one method to one host', async () => {
    t = await startEgress();
    expect(t.kernel.primitives.list().find((p) => p.name === 'http_request')?.kind).toBe('fetch');
    const tool = t.kernel.primitives.get('http_request')!;
    expect(tool.effect?.({ method: 'post', url: 'https://API.Example.com:8443/a/b?x=1' }, { workspace: t.workspace })).toBe('http:POST api.example.com:8443');
  });

  it('denies a handle in the query to a host the class is not bound to; the server receives nothing', async () => {
    const s = await server();
    bindGithub('api.github.com', 'query:key');
    t = await startEgress();
    const result = await t.apply('http_request', { method: 'GET', url: `${s.origin}/x?key={{secret:github}}` });
    expect(envelopeOf(result).code).toBe('GUARD_EGRESS_UNBOUND');
    expect(s.seen).toHaveLength(0);
  });

  it('refuses a secret over plain http to a host that is not loopback, even when bound, before any network', async () => {
    bindGithub('example.invalid');
    t = await startEgress();
    const session = t.session();
    const result = await t.apply('http_request', { method: 'GET', url: 'http://example.invalid/a', headers: { Authorization: '{{secret:github}}' } }, { session, confirm: true });
    expect([envelopeOf(result).category, envelopeOf(result).code]).toEqual(['PERMISSION_DENIED', 'GUARD_EGRESS_INSECURE']);
    expect(decisions(t, session)).toMatchObject([{ decision: 'deny', code: 'GUARD_EGRESS_INSECURE' }]);
  });

  it('lets policy.allow_insecure_http = true turn the http refusal into the ordinary binding check', async () => {
    t = await startEgress({ settings: { policy: { allow_insecure_http: true } } });
    const result = await t.apply('http_request', { method: 'GET', url: 'http://example.invalid/a', headers: { Authorization: '{{secret:github}}' } });
    expect(envelopeOf(result).code).toBe('GUARD_EGRESS_UNBOUND');
  });

  it('denies a tainted value in the body to an unbound host, with no handle in sight', async () => {
    const s = await server();
    const tracker = new StubTracker();
    t = await startEgress({ tracker });
    const session = t.session();
    tracker.remember(session, 'AKIAZZTAINTEDVALUE77', ['aws']);
    const result = await t.apply('http_request', { method: 'POST', url: `${s.origin}/upload`, body: { note: 'key=AKIAZZTAINTEDVALUE77' } }, { session });
    expect(envelopeOf(result).code).toBe('GUARD_EGRESS_UNBOUND');
    expect(s.seen).toHaveLength(0);
    expect(decisions(t, session)).toMatchObject([{ class: 'aws', source: 'taint', decision: 'confirm', position: { kind: 'body', name: '$.note' } }]);
    expectNoValue('AKIAZZTAINTEDVALUE77', t.events(session), result);
  });

  it('treats a tainted value in the URL path as unbindable and hides the destination', async () => {
    const s = await server();
    const tracker = new StubTracker();
    bindGithub(s.host);
    t = await startEgress({ tracker });
    const session = t.session();
    tracker.remember(session, 'tainted-path-part-42', ['github']);
    const result = await t.apply('http_request', { method: 'GET', url: `${s.origin}/tainted-path-part-42` }, { session });
    expect(envelopeOf(result).code).toBe('GUARD_EGRESS_UNBOUND');
    expect(s.seen).toHaveLength(0);
    expect(decisions(t, session)).toMatchObject([{ class: 'github', position: { kind: 'url' }, destination: { host: '[hidden]', hidden: true } }]);
    expectNoValue('tainted-path-part-42', t.events(session), result);
  });

  it('applies the call taint to every position, bound or not', async () => {
    const s = await server();
    bindGithub(s.host);
    t = await startEgress();
    const session = t.session();
    const args = { method: 'GET', url: `${s.origin}/user`, headers: { Authorization: 'Bearer {{secret:github}}', 'X-Note': 'hello' } };
    const result = await t.kernel.apply({ session, name: 'http_request', args, origin: 'model', taint: ['github'] });
    expect(envelopeOf(result).code).toBe('GUARD_EGRESS_UNBOUND');
    expect(decisions(t, session).map((d) => [(d.position as { name: string }).name, d.decision])).toEqual([
      ['Authorization', 'allow'],
      ['X-Note', 'confirm'],
    ]);
  });

  it('remembers each revealed value with the tracker under its class', async () => {
    const s = await server();
    const tracker = new StubTracker();
    bindGithub(s.host);
    t = await startEgress({ tracker });
    const session = t.session();
    await t.apply('http_request', { method: 'GET', url: `${s.origin}/`, headers: { Authorization: '{{secret:github}}' } }, { session });
    expect(tracker.remembered).toEqual([{ session, value: GITHUB, tags: ['github'] }]);
  });

  it('denies an unknown handle with SECRET_UNKNOWN', async () => {
    const s = await server();
    t = await startEgress();
    const env = envelopeOf(await t.apply('http_request', { method: 'GET', url: `${s.origin}/`, headers: { 'X-Key': '{{secret:nope}}' } }));
    expect([env.category, env.code]).toEqual(['NOT_FOUND', 'SECRET_UNKNOWN']);
    expect(s.seen).toHaveLength(0);
  });

  it('fails closed when the keychain throws, and logs the deny', async () => {
    const s = await server();
    t = await startEgress({ failingKeychain: true });
    const session = t.session();
    const env = envelopeOf(await t.apply('http_request', { method: 'GET', url: `${s.origin}/`, headers: { 'X-Key': '{{secret:github}}' } }, { session }));
    expect(env.code).toBe('EGRESS_CHECK_FAILED');
    expect(decisions(t, session)).toMatchObject([{ decision: 'deny', code: 'EGRESS_CHECK_FAILED' }]);
    expect(s.seen).toHaveLength(0);
  });

  it('denies with the JSON path of a malformed bindings.toml entry', async () => {
    home.write('[[github]]\nhost = "https://api.github.com"\npositions = ["header:Authorization"]\nmethods = ["GET"]\n');
    t = await startEgress();
    const env = envelopeOf(await t.apply('http_request', { method: 'GET', url: 'https://api.github.com/', headers: { A: '{{secret:github}}' } }));
    expect([env.code, env.failed_parameter]).toEqual(['BINDINGS_INVALID', '$.github[0].host']);
  });

  it('passes a request with no secret and no taint without asking and without an egress event', async () => {
    const s = await server();
    t = await startEgress();
    const session = t.session();
    expect((await t.apply('http_request', { method: 'POST', url: `${s.origin}/`, body: 'plain' }, { session })).ok).toBe(true);
    expect(decisions(t, session)).toEqual([]);
    expect(s.seen).toHaveLength(1);
  });
});
