import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DAEMON_SCRIPT } from './fake-daemon-script.js';
import { FakeBrowserWindow, fakeMainElectron } from './fake-electron.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
let out: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'nodwyn-desktop-dist-'));
  execFileSync(process.execPath, [join(app, 'build.mjs'), out], { stdio: 'pipe' });
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The modules a CommonJS bundle requires. */
function requires(file: string): string[] {
  return [...new Set([...readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] as string))].sort();
}

/** Runs a CommonJS bundle in this process with `electron` replaced by `electron`. */
function runBundle(file: string, electron: unknown): void {
  const code = readFileSync(file, 'utf8');
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`) as (...args: unknown[]) => void;
  const realRequire = createRequire(file);
  const module = { exports: {} };
  wrapper(module.exports, (id: string) => (id === 'electron' ? electron : realRequire(id)), module, file, dirname(file));
}

describe('the desktop bundles (dist/main.cjs, dist/preload.cjs)', () => {
  it('the sandboxed preload requires nothing but electron', () => {
    expect(requires(join(out, 'preload.cjs'))).toEqual(['electron']);
  });

  it('main requires only electron and Node built-ins (plus ws’s optional native helpers)', () => {
    const allowed = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'electron', 'bufferutil', 'utf-8-validate']);
    expect(requires(join(out, 'main.cjs')).filter((m) => !allowed.has(m))).toEqual([]);
  });

  it('the preload exposes exactly window.nodwynDesktop with the DesktopBridge members', () => {
    const exposed: [string, Record<string, unknown>][] = [];
    const ipcRenderer = { invoke: async () => undefined, send: () => undefined, on: () => undefined, removeListener: () => undefined };
    runBundle(join(out, 'preload.cjs'), { contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.push([key, api]) }, ipcRenderer });
    expect(exposed.map(([key]) => key)).toEqual(['nodwynDesktop']);
    expect(Object.keys(exposed[0]?.[1] ?? {}).sort()).toEqual(['daemonState', 'notify', 'onDaemonState', 'openWorkspace', 'restartDaemon', 'saveSettings', 'version']);
    expect(Object.values(exposed[0]?.[1] ?? {})).not.toContain(ipcRenderer);
  });

  it('main, wired to (fake) Electron, starts the daemon, opens a fenced window on its login link, and stops the daemon on quit', async () => {
    const home = mkdtempSync(join(tmpdir(), 'nodwyn-home-'));
    const cli = join(home, 'fake-nodwyn.cjs');
    writeFileSync(cli, FAKE_DAEMON_SCRIPT);
    try {
      await runMain(home, cli, async (window, serve) => {
        expect(window.loaded.at(-1)).toBe(`${new URL(serve.http).origin}/login?t=one-time`);
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 30_000);

  it('with the real nodwyn CLI bundle: the window gets a working one-time login link from a real daemon', async () => {
    const cli = join(app, '..', 'cli', 'dist', 'nodwyn.mjs');
    expect(existsSync(cli), `${cli} is missing: build it with node tools/build/build-cli.mjs`).toBe(true);
    const home = mkdtempSync(join(tmpdir(), 'nodwyn-home-'));
    try {
      await runMain(home, cli, async (window, serve) => {
        const link = window.loaded.at(-1) ?? '';
        expect(link.startsWith(`${new URL(serve.http).origin}/login?t=`)).toBe(true);
        const first = await fetch(link, { redirect: 'manual' });
        expect(first.status).toBe(303);
        expect(first.headers.get('set-cookie')).toMatch(/^nodwyn_session=[^;]+;.*HttpOnly/i);
        expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * Evaluates the real main.cjs with fake Electron, `$NODWYN_HOME` = `home` and `$NODWYN_CLI` = `cli`; waits
 * for the window to load a login link, checks the window and the bridge, runs `check`, then quits the
 * app and checks the daemon it started is gone.
 */
async function runMain(home: string, cli: string, check: (window: FakeBrowserWindow, serve: { http: string; token: string }) => Promise<void>): Promise<void> {
  const saved = { home: process.env.NODWYN_HOME, cli: process.env.NODWYN_CLI };
  process.env.NODWYN_HOME = home;
  process.env.NODWYN_CLI = cli;
  FakeBrowserWindow.made.length = 0;
  const fake = fakeMainElectron();
  try {
    runBundle(join(out, 'main.cjs'), fake.electron);
    await until(() => FakeBrowserWindow.made[0]?.loaded.some((url) => url.includes('/login?t=')) === true);
    const window = FakeBrowserWindow.made[0];
    if (!window) throw new Error('main made no window');
    expect(window.options.webPreferences).toEqual({ contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, preload: join(out, 'preload.cjs') });
    const serve = JSON.parse(readFileSync(join(home, 'serve.json'), 'utf8')) as { http: string; token: string };
    expect(window.loaded.join(' ')).not.toContain(serve.token);
    expect([...fake.handlers.keys()].sort()).toEqual(['nodwyn:daemon-state', 'nodwyn:notify', 'nodwyn:open-workspace', 'nodwyn:restart-daemon', 'nodwyn:save-settings']);
    await check(window, serve);
    let prevented = false;
    fake.appEvents.get('before-quit')?.({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await until(() => fake.exitCode() !== undefined);
    expect(fake.exitCode()).toBe(0);
    expect(existsSync(join(home, 'serve.json'))).toBe(false);
  } finally {
    for (const [name, value] of [['NODWYN_HOME', saved.home], ['NODWYN_CLI', saved.cli]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Polls `done` every 50 ms, for at most 20 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
