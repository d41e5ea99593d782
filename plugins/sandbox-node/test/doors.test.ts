import type { ApplyResult } from '@nodwyn/plugin-api';
import type { SandboxGrants, SandboxResult, SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { startRecordingServer, startTestKernel, type RecordingServer, type TestKernel } from '@nodwyn/testing';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRunner } from '../src/index.js';
import { HOST_PLUGINS } from './host-plugins.js';

/** The doors on a real kernel: read_file, write_file and http_request through the guard and the text layers. */
let t: TestKernel;
let server: RecordingServer;
const runner = createNodeRunner({ networkCut: true });
const calls: { name: string; taint: readonly string[] }[] = [];

beforeAll(async () => {
  t = await startTestKernel({ plugins: HOST_PLUGINS });
  server = await startRecordingServer();
});
afterAll(async () => {
  await t?.stop();
  await server?.close();
});

function file(path: string, text: string): void {
  mkdirSync(dirname(join(t.workspace, path)), { recursive: true });
  writeFileSync(join(t.workspace, path), text);
}

function run(code: string, args: unknown, grants: SandboxGrants): Promise<SandboxResult> {
  const session = 'doors';
  const apply: SandboxRunRequest['apply'] = (name, a, o = {}): Promise<ApplyResult> => {
    calls.push({ name, taint: o.taint ?? [] });
    return t.kernel.apply({ session, name, args: a, origin: 'host', taint: o.taint ?? [] });
  };
  return runner.run({ session, code, args, grants, workspace: t.workspace, signal: new AbortController().signal, apply, limits: { timeoutMs: 30_000 } });
}

const READ = 'export default (a, nodwyn) => nodwyn.readFile(a.path)';

describe('nodwyn.readFile', () => {
  it('gives back the exact text: CRLF and LF endings, no final newline, tabs and non-ASCII', async () => {
    for (const text of ['a\r\nb\r\n', 'mixed\r\nlf\nlast', '\tindent naïve ✓\n\n', '', 'single']) {
      file('exact.txt', text);
      const result = await run(READ, { path: 'exact.txt' }, { read: true });
      expect(result.ok && result.value, JSON.stringify(text)).toBe(text);
    }
  });

  it('reads a file longer than one read_file page', async () => {
    const text = Array.from({ length: 4500 }, (_, i) => `line ${i + 1} ${'x'.repeat(i % 70)}`).join('\n') + '\n';
    file('long.txt', text);
    const result = await run(READ, { path: 'long.txt' }, { read: true });
    expect(result.ok && result.value).toBe(text);
  });

  it('refuses a file with a line longer than read_file shows whole, rather than return it cut', async () => {
    file('wide.txt', `short\n${'w'.repeat(2500)}\n`);
    const result = await run(READ, { path: 'wide.txt' }, { read: true });
    expect(!result.ok && result.envelope).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'SANDBOX_READ_LINE_TOO_LONG' });
  });

  it('passes the text layers: a secret arrives redacted, the run is tainted, and later calls carry the taint', async () => {
    const secret = 'ghp_Q8vR2mZk7LwX4nT9bYc3Hs6Jd1Fp0Ga5Ue2K';
    file('.env', `GITHUB_TOKEN=${secret}\n`);
    calls.length = 0;
    const code = "export default async (a, nodwyn) => { const env = await nodwyn.readFile('.env'); await nodwyn.writeFile('copy.txt', env); return env; }";
    const result = await run(code, {}, { read: true, write: true });
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(result.ok && result.value).toMatch(/\[REDACTED github-token\]/);
    expect(result.taint).toContain('github-token');
    expect(calls.map((c) => c.name)).toEqual(['read_file', 'write_file']);
    expect(calls[1]?.taint).toContain('github-token');
    expect(readFileSync(join(t.workspace, 'copy.txt'), 'utf8')).not.toContain(secret);
  });

  it('goes through the guard: the read is logged as a host call', async () => {
    file('logged.txt', 'hello\n');
    await run(READ, { path: 'logged.txt' }, { read: true });
    const logged = t.events('doors').filter((e) => e.payload.name === 'read_file' && e.payload.origin === 'host');
    expect(logged.length).toBeGreaterThan(0);
  });
});

describe('door errors', () => {
  it('reach the code as errors it can catch, with the envelope code', async () => {
    const code = "export default async (a, nodwyn) => { try { await nodwyn.readFile('x'); } catch (e) { return [e.name, e.code, e.message.split(':')[0]]; } }";
    const result = await run(code, {}, {});
    expect(result.ok && result.value).toEqual(['NodwynDoorError', 'SANDBOX_GRANT_MISSING', 'PERMISSION_DENIED SANDBOX_GRANT_MISSING']);
  });

  it('end the run with the door\'s own envelope when the code lets them escape', async () => {
    const result = await run(READ, { path: 'missing/nowhere.txt' }, { read: true });
    expect(!result.ok && result.envelope.operation).toBe('read_file');
  });

  it('refuse writeFile of something that is not text', async () => {
    const result = await run("export default (a, nodwyn) => nodwyn.writeFile('n.txt', 42)", {}, { write: true });
    expect(!result.ok && result.envelope).toMatchObject({ code: 'SANDBOX_DOOR_ARGUMENT', failed_parameter: '$.text' });
  });
});

describe('nodwyn.fetch', () => {
  it('sends method, headers and body to a granted host and answers status, shown headers and body', async () => {
    server.route('/hello', (seen, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-hidden': 'no' }).end(JSON.stringify({ got: seen.body })));
    const code = "export default async (a, nodwyn) => { const r = await nodwyn.fetch(a.url, { method: 'PUT', headers: { 'x-a': '1' }, body: 'hi' }); return r; }";
    const result = await run(code, { url: `${server.origin}/hello` }, { net: [server.host] });
    expect(result.ok && result.value).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"got":"hi"}' });
    expect(server.seen.at(-1)).toMatchObject({ method: 'PUT', body: 'hi' });
    expect(server.seen.at(-1)?.headers['x-a']).toBe('1');
  });

  it('refuses a host outside the grant and a URL it cannot send, before any request', async () => {
    const before = server.seen.length;
    const other = await run("export default (a, nodwyn) => nodwyn.fetch(a.url)", { url: `http://localhost:${server.port}/x` }, { net: [server.host] });
    expect(!other.ok && other.envelope.code).toBe('SANDBOX_HOST_NOT_GRANTED');
    for (const url of ['file:///etc/passwd', 'not a url']) {
      const bad = await run("export default (a, nodwyn) => nodwyn.fetch(a.url)", { url }, { net: [server.host] });
      expect(!bad.ok && bad.envelope.code, url).toBe('SANDBOX_DOOR_ARGUMENT');
    }
    expect(server.seen.length).toBe(before);
  });
});
