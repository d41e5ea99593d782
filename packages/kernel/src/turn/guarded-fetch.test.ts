import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelope, isEnvelopeError, type CheckStage, type EgressSender, type GuardCall } from '@nodwyn/plugin-api';
import { memoryKernel } from '../../test/helpers.js';
import type { Kernel } from '../kernel.js';
import { createGuardedFetch } from './guarded-fetch.js';

let kernel: Kernel;
let server: Server;
let base: string;
const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeEach(async () => {
  kernel = memoryKernel();
  seen.length = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  kernel.close();
  await new Promise((resolve) => server.close(resolve));
});

/** An egress stage that records what it was shown and denies requests to `/deny`. */
function recordingStage(calls: GuardCall[]): CheckStage {
  return {
    name: 'recorder',
    slot: 'egress',
    check(call) {
      calls.push(call);
      if (call.targets.some((t) => t.url.endsWith('/deny'))) {
        return { kind: 'deny', envelope: envelope({ category: 'PERMISSION_DENIED', code: 'TEST_DENY', remediation: 'denied by the test' }) };
      }
      return { kind: 'allow' };
    },
  };
}

/** A last hop that substitutes one known secret, as the egress plugin's does with the keychain. */
const sender: EgressSender = {
  send: (_session, request, signal) =>
    fetch(request.url, { method: request.method, headers: request.headers.map(([k, v]) => [k, v.replace('{{secret:key}}', 'value-of-key')]), body: request.body, signal }),
};

describe('the guarded fetch', () => {
  it('shows every header to the egress stages, then sends a request without handles directly', async () => {
    const calls: GuardCall[] = [];
    kernel.stages.add('test', recordingStage(calls));
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const fetch = createGuardedFetch({ guard: kernel.guard, session, name: 'model.stream', sender: () => undefined });
    const response = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'x-test': 'one' }, body: '{"a":1}' });
    expect(await response.text()).toBe('ok');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.targets[0]).toMatchObject({ method: 'POST', url: `${base}/v1/messages` });
    expect(calls[0]!.targets[0]!.positions).toContainEqual({ kind: 'header', name: 'x-test', value: 'one' });
    expect(seen[0]).toMatchObject({ url: '/v1/messages', body: '{"a":1}' });
  });

  it('substitutes a handle only through the sender, after the check', async () => {
    const calls: GuardCall[] = [];
    kernel.stages.add('test', recordingStage(calls));
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const fetch = createGuardedFetch({ guard: kernel.guard, session, name: 'model.stream', sender: () => sender });
    await fetch(`${base}/ok`, { method: 'POST', headers: { authorization: 'Bearer {{secret:key}}' }, body: '{}' });
    expect(calls[0]!.targets[0]!.positions).toContainEqual({ kind: 'header', name: 'authorization', value: 'Bearer {{secret:key}}' });
    expect(seen[0]!.headers.authorization).toBe('Bearer value-of-key');
  });

  it('refuses a request the egress stage denies, sending nothing', async () => {
    kernel.stages.add('test', recordingStage([]));
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const fetch = createGuardedFetch({ guard: kernel.guard, session, name: 'model.stream', sender: () => sender });
    const error = await fetch(`${base}/deny`, { method: 'POST', headers: { authorization: 'Bearer {{secret:key}}' } }).catch((e: unknown) => e);
    expect(isEnvelopeError(error) && error.envelope.code).toBe('TEST_DENY');
    expect(seen).toHaveLength(0);
  });

  it('refuses to send a handle when no egress plugin can substitute it', async () => {
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const fetch = createGuardedFetch({ guard: kernel.guard, session, name: 'model.stream', sender: () => undefined });
    const error = await fetch(`${base}/ok`, { headers: { authorization: 'Bearer {{secret:key}}' } }).catch((e: unknown) => e);
    expect(isEnvelopeError(error) && error.envelope.code).toBe('EGRESS_SENDER_MISSING');
    expect(seen).toHaveLength(0);
  });

  it('never follows a redirect', async () => {
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const fetch = createGuardedFetch({ guard: kernel.guard, session, name: 'model.stream', sender: () => undefined });
    const response = await fetch(`${base}/redirect`);
    expect(response.status).toBe(302);
    expect(seen).toHaveLength(1);
  });

  it('reads a Request object as the SDKs may pass one', async () => {
    const session = kernel.sessions.create({ workspace: kernel.workspace });
    const fetch = createGuardedFetch({ guard: kernel.guard, session, name: 'model.stream', sender: () => undefined });
    await fetch(new Request(`${base}/req`, { method: 'PUT', headers: { 'x-a': 'b' }, body: 'payload' }));
    expect(seen[0]).toMatchObject({ url: '/req', body: 'payload' });
    expect(seen[0]!.headers['x-a']).toBe('b');
  });
});
