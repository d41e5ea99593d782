import type { SandboxResult } from '@nodwyn/plugin-api/sandbox';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import inspector from 'node:inspector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRunner } from '../src/index.js';
import { runRequest } from './run-request.js';

/**
 * The containment table of the README, measured: each row is a run of real code in a real child process.
 * The runner is made with `networkCut` so runs without a net grant go ahead; nothing here uses a door.
 */
const runner = createNodeRunner({ networkCut: true });
let temp: string;

beforeAll(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-node-containment-')));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function run(code: string, args: unknown = {}, limits = {}): Promise<SandboxResult> {
  return runner.run(runRequest(code, { args, limits: { timeoutMs: 20_000, ...limits }, workspace: temp }));
}

function envelopeOf(result: SandboxResult) {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.envelope;
}

describe("what Node's permission model refuses in the child", () => {
  const denied: [string, string, RegExp][] = [
    ['reading a file outside the door', "import fs from 'node:fs'; export default () => fs.readFileSync('/etc/passwd', 'utf8')", /FileSystemRead/],
    ['reading the workspace directly', "import fs from 'node:fs'; export default (a) => fs.readFileSync(a.ws + '/x.txt', 'utf8')", /FileSystemRead/],
    ['listing a folder', "import fs from 'node:fs'; export default () => fs.readdirSync('/')", /FileSystemRead/],
    ['spawning a process', "import cp from 'node:child_process'; export default () => cp.execFileSync('/bin/true')", /ChildProcess/],
    ['starting a worker', "import { Worker } from 'node:worker_threads'; export default () => { new Worker('1', { eval: true }); return 1; }", /WorkerThreads/],
    ['opening the inspector', "import inspector from 'node:inspector'; export default () => { inspector.open(0); return inspector.url(); }", /Inspector/],
    ['starting WASI', "import { WASI } from 'node:wasi'; export default () => { new WASI({ version: 'preview1' }); return 1; }", /WASI/],
  ];
  for (const [what, code, permission] of denied) {
    it(`refuses ${what} with SANDBOX_ACCESS_DENIED`, async () => {
      const env = envelopeOf(await run(code, { ws: temp }));
      expect(env).toMatchObject({ category: 'PERMISSION_DENIED', code: 'SANDBOX_ACCESS_DENIED' });
      expect(env.received_value).toMatch(permission);
    });
  }

  it('refuses writing a file anywhere, and nothing is written', async () => {
    const target = join(temp, 'written.txt');
    const env = envelopeOf(await run("import fs from 'node:fs'; export default (a) => fs.writeFileSync(a.target, 'x')", { target }));
    expect(env.code).toBe('SANDBOX_ACCESS_DENIED');
    expect(env.received_value).toMatch(/FileSystemWrite/);
    expect(existsSync(target)).toBe(false);
  });

  it('refuses native addons', async () => {
    const env = envelopeOf(await run("export default () => { process.dlopen({ exports: {} }, '/tmp/none.node'); return 1; }"));
    expect(env.remediation).toMatch(/addons/);
  });
});

describe('what the harness takes away before the code loads', () => {
  it('refuses signalling the host: process.kill and process._kill', async () => {
    for (const call of ["process.kill(process.ppid, 'SIGKILL')", "process._kill(process.ppid, 9)"]) {
      const env = envelopeOf(await run(`export default () => ${call}`));
      expect(env.code, call).toBe('SANDBOX_ACCESS_DENIED');
    }
  });

  it("refuses process._debugProcess, which would open the host's inspector", async () => {
    const env = envelopeOf(await run('export default () => process._debugProcess(process.ppid)'));
    expect(env.code).toBe('SANDBOX_ACCESS_DENIED');
    expect(inspector.url()).toBeUndefined();
  });

  it("refuses renicing the host with os.setPriority, through the default and the named export", async () => {
    for (const code of ["import os from 'node:os'; export default () => os.setPriority(process.ppid, 19)", "import { setPriority } from 'node:os'; export default () => setPriority(process.ppid, 19)"]) {
      expect(envelopeOf(await run(code)).code, code).toBe('SANDBOX_ACCESS_DENIED');
    }
  });

  it('refuses changing V8 flags at run time, which would allow natives syntax, by every route to node:v8', async () => {
    const routes = [
      "import v8 from 'node:v8'; export default () => v8.setFlagsFromString('--allow-natives-syntax')",
      "import { setFlagsFromString } from 'node:v8'; export default () => setFlagsFromString('--allow-natives-syntax')",
      "export default () => process.getBuiltinModule('v8').setFlagsFromString('--allow-natives-syntax')",
    ];
    for (const code of routes) {
      const env = envelopeOf(await run(code));
      expect(env.code, code).toBe('SANDBOX_ACCESS_DENIED');
      expect(env.received_value).toMatch(/EngineFlags/);
    }
  });

  it('refuses the APIs that write files past the permission model: heap snapshots near the limit, trace events', async () => {
    for (const code of ["import v8 from 'node:v8'; export default () => v8.setHeapSnapshotNearHeapLimit(1)", "import t from 'node:trace_events'; export default () => t.createTracing({ categories: ['v8'] })"]) {
      expect(envelopeOf(await run(code)).received_value, code).toMatch(/FileSystemWrite/);
    }
  });

  it('leaves no global fetch, so code that reaches for it is told, not silently unchecked', async () => {
    const result = await run("export default () => [typeof fetch, typeof WebSocket, typeof EventSource]");
    expect(result.ok && result.value).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('gives the code an empty environment', async () => {
    process.env.NODWYN_CONTAINMENT_CANARY = 'canary-containment';
    try {
      const result = await run('export default () => ({ env: { ...process.env }, home: process.env.HOME ?? null })');
      expect(result.ok && result.value).toEqual({ env: {}, home: null });
    } finally {
      delete process.env.NODWYN_CONTAINMENT_CANARY;
    }
  });
});

describe('what Node does not contain (why the runner refuses runs without a net grant)', () => {
  it('lets the code open a TCP connection to a loopback port: the network is NOT restricted', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections += 1;
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const code = "import net from 'node:net'; export default (a) => new Promise((ok, no) => net.connect(a.port, '127.0.0.1', () => ok('connected')).on('error', no))";
      const result = await run(code, { port });
      expect(result.ok && result.value).toBe('connected');
      expect(connections).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('follows a symlink out of a folder granted with --allow-fs-read, which is why no workspace folder is granted', () => {
    writeFileSync(join(temp, 'secret.txt'), 'outside the folder');
    const granted = join(temp, 'granted');
    spawnSync('mkdir', [granted]);
    symlinkSync(join(temp, 'secret.txt'), join(granted, 'link'));
    const probe = spawnSync(process.execPath, ['--experimental-permission', '--disable-warning=ExperimentalWarning', `--allow-fs-read=${granted}`, '-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(join(granted, 'link'))}, 'utf8'))`], { env: {}, encoding: 'utf8' });
    expect(probe.stdout).toBe('outside the folder');
  });
});

describe('how runs end', () => {
  it('kills a run whose Buffers pass the resident-memory limit the heap flag does not cover', async () => {
    const env = envelopeOf(await run("export default () => { const keep = []; for (;;) keep.push(Buffer.alloc(8 * 1024 * 1024, 1)); }", {}, { memoryMb: 32 }));
    expect(env).toMatchObject({ category: 'LIMIT_EXCEEDED', code: 'SANDBOX_MEMORY' });
  });

  it('reports a thrown error with its message and line', async () => {
    const env = envelopeOf(await run("export default () => {\n  throw new TypeError('bad input');\n};"));
    expect(env).toMatchObject({ category: 'VALIDATION_FAILED', code: 'SANDBOX_CODE_THREW' });
    expect(env.remediation).toMatch(/TypeError: bad input \(at line 2, column 9 of the code\)/);
  });

  it('reports a module that does not load as SANDBOX_CODE_INVALID, and one without a default function as SANDBOX_NO_DEFAULT_EXPORT', async () => {
    for (const code of ['export default () => {\n  return 1 +;\n};', "import x from 'lodash'; export default () => x;"]) {
      expect(envelopeOf(await run(code)).code, code).toBe('SANDBOX_CODE_INVALID');
    }
    for (const code of ['export const x = 1;', 'export default 42;']) {
      expect(envelopeOf(await run(code)).code, code).toBe('SANDBOX_NO_DEFAULT_EXPORT');
    }
  });

  it('refuses a value that is not JSON', async () => {
    for (const code of ['export default () => undefined', 'export default () => 10n', 'export default () => { const a = {}; a.a = a; return a; }']) {
      expect(envelopeOf(await run(code)).code, code).toBe('SANDBOX_RESULT_NOT_JSON');
    }
  });

  it('reports process.exit and a crash after the call as SANDBOX_CODE_EXITED or the error', async () => {
    expect(envelopeOf(await run('export default () => process.exit(3)')).received_value).toBe('exit code 3');
    expect(envelopeOf(await run("export default () => new Promise(() => setTimeout(() => { throw new Error('later'); }, 5))")).remediation).toMatch(/Error: later/);
  });

  it('keeps console output and nodwyn.log in the logs, in order', async () => {
    const result = await run("export default async (a, nodwyn) => { nodwyn.log('one', { n: 2 }); await new Promise((r) => setTimeout(r, 20)); console.log('three'); return 'ok'; }");
    expect(result).toMatchObject({ ok: true, value: 'ok', logs: 'one {"n":2}\nthree\n' });
  });

  it('ends a run whose code writes to the runner channel with SANDBOX_CHANNEL_CORRUPT', async () => {
    const env = envelopeOf(await run("import fs from 'node:fs'; export default () => { fs.writeSync(3, 'not json\\n'); return new Promise(() => {}); }"));
    expect(env.code).toBe('SANDBOX_CHANNEL_CORRUPT');
  });

  it('ends a run that floods the doors without waiting with SANDBOX_DOOR_FLOOD', async () => {
    const env = envelopeOf(await run("export default (a, nodwyn) => Promise.all(Array.from({ length: 5000 }, () => nodwyn.readFile('x')))"));
    expect(env.code).toBe('SANDBOX_DOOR_FLOOD');
  });

  it('leaves the door frozen: the code cannot swap a door for the rest of its own run', async () => {
    const result = await run("export default (a, nodwyn) => { try { nodwyn.log = null; } catch {} return [Object.isFrozen(nodwyn), Object.getPrototypeOf(nodwyn), typeof nodwyn.log]; }");
    expect(result.ok && result.value).toEqual([true, null, 'function']);
  });
});
