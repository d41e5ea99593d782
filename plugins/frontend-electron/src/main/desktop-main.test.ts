import { DESKTOP_CHANNELS, type DesktopNotification, type Envelope } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { FakeClock, FakeDaemons, FakeIpcMain, FakeWindow, flush } from '../../test/fakes.js';
import type { ConfigStore } from './config-store.js';
import { DaemonSupervisor, RESTART_DELAY_MS } from './daemon-supervisor.js';
import { DesktopMain } from './desktop-main.js';
import type { FetchLike } from './login-link.js';

const PRELOAD = '/opt/nodwyn/resources/app.asar/dist/preload.cjs';

function setup() {
  const clock = new FakeClock();
  const daemons = new FakeDaemons();
  const supervisor = new DaemonSupervisor({ home: '/tmp/h', spawn: daemons.spawn, readServeFile: daemons.readServeFile, clock, isAlive: () => false, terminate: () => undefined });
  const ipc = new FakeIpcMain();
  const windows: FakeWindow[] = [];
  const requests: { url: string; headers: Record<string, string> }[] = [];
  let link = 0;
  const fetch: FetchLike = async (url, init) => {
    requests.push({ url, headers: init.headers });
    const origin = new URL(url).origin;
    return { ok: true, status: 200, json: async () => ({ url: `${origin}/login?t=link${++link}`, expiresInMs: 60_000 }) };
  };
  const notified: DesktopNotification[] = [];
  const reported: Envelope[] = [];
  const opened: string[] = [];
  const written: string[] = [];
  const config: ConfigStore = { read: async () => '', write: async (t) => void written.push(t), remove: async () => undefined, backup: async () => undefined };
  const validated: unknown[] = [];
  const main = new DesktopMain({
    createWindow: (options) => {
      const window = new FakeWindow(options);
      windows.push(window);
      return window;
    },
    ipcMain: ipc,
    supervisor,
    config,
    validateSettings: async (settings) => {
      validated.push(settings);
      return { ok: false, envelope: { remediation: 'no' } as Envelope };
    },
    fetch,
    preload: PRELOAD,
    notify: (n) => notified.push(n),
    chooseFolder: async () => '/home/me/project',
    openExternal: (url) => opened.push(url),
    report: (e) => reported.push(e),
  });
  return { clock, daemons, supervisor, ipc, windows, requests, notified, reported, opened, written, validated, main };
}

async function started() {
  const world = setup();
  const start = world.main.start();
  await flush();
  const endpoint = await world.daemons.ready(7001);
  const window = await start;
  await world.main.settled();
  return { ...world, window: window as FakeWindow, endpoint };
}

describe('DesktopMain: the window', () => {
  it('makes one window with contextIsolation, no nodeIntegration, sandbox, webSecurity and the preload', async () => {
    const { windows } = await started();
    expect(windows).toHaveLength(1);
    expect(windows[0]?.options.webPreferences).toEqual({ contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, preload: PRELOAD });
    expect(windows[0]?.options.show).toBe(false);
    expect(windows[0]?.shown).toBe(true);
  });

  it('loads a one-time login link got with the bearer token from serve.json; the token never reaches the window', async () => {
    const { window, requests, endpoint } = await started();
    expect(requests).toEqual([{ url: 'http://127.0.0.1:7001/_nodwyn/login-link', headers: { authorization: `Bearer ${endpoint.token}` } }]);
    expect(window.loaded.at(-1)).toBe('http://127.0.0.1:7001/login?t=link1');
    expect(window.loaded.join(' ')).not.toContain(endpoint.token);
  });

  it('refuses navigation and redirects to any other origin, and allows the daemon’s own', async () => {
    const { window } = await started();
    expect(window.navigate('http://127.0.0.1:7001/sessions/abc')).toBe(false);
    expect(window.navigate('https://evil.example/phish')).toBe(true);
    expect(window.navigate('http://127.0.0.1:7002/')).toBe(true);
    expect(window.navigate('file:///etc/passwd')).toBe(true);
    expect(window.navigate('javascript:alert(1)')).toBe(true);
    expect(window.navigate('not a url')).toBe(true);
    expect(window.navigate('https://evil.example/', 'will-redirect')).toBe(true);
    expect(window.navigate('http://127.0.0.1:7001/', 'will-redirect')).toBe(false);
  });

  it('denies every new window; http(s) links go to the system browser, nothing else does', async () => {
    const { window, opened } = await started();
    expect(window.open('https://docs.example/page')).toEqual({ action: 'deny' });
    expect(window.open('http://127.0.0.1:7001/')).toEqual({ action: 'deny' });
    expect(window.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(window.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://docs.example/page', 'http://127.0.0.1:7001/']);
  });

  it('after a crash and restart, loads a fresh login link on the new origin and resends nothing to the daemon', async () => {
    const { window, daemons, clock, requests, validated } = await started();
    daemons.last.crash(1, 'killed');
    await flush();
    await clock.advance(RESTART_DELAY_MS);
    await daemons.ready(7002);
    expect(window.loaded.at(-1)).toBe('http://127.0.0.1:7002/login?t=link2');
    expect(window.navigate('http://127.0.0.1:7001/')).toBe(true);
    expect(window.navigate('http://127.0.0.1:7002/')).toBe(false);
    // Main's only requests to any daemon are the two login links: no prompt, no session call is replayed.
    expect(requests.map((r) => r.url)).toEqual(['http://127.0.0.1:7001/_nodwyn/login-link', 'http://127.0.0.1:7002/_nodwyn/login-link']);
    expect(validated).toEqual([]);
  });

  it('pushes every daemon state to the page, and shows the crash loop’s error as text in a script-free page', async () => {
    const { window, daemons, clock } = await started();
    for (let i = 0; i < 3; i++) {
      daemons.last.crash(1, `<img src=x onerror=alert(1)> crash ${i}`);
      await flush();
      if (i < 2) {
        await clock.advance(RESTART_DELAY_MS);
        await daemons.ready();
      }
    }
    const states = window.sent.filter((m) => m.channel === DESKTOP_CHANNELS.daemonStateChanged).map((m) => (m.args[0] as { state: string }).state);
    expect(states).toEqual(['starting', 'running', 'restarting', 'restarting', 'running', 'restarting', 'restarting', 'running', 'crash-loop']);
    const page = decodeURIComponent(window.loaded.at(-1)?.replace('data:text/html;charset=utf-8,', '') ?? '');
    expect(page).toContain('crashed three times within 30 seconds');
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62; crash 2');
    expect(page).not.toContain('<img');
    expect(page).toContain("default-src 'none'");
  });
});

describe('DesktopMain: the bridge in main', () => {
  it('answers the bridge’s calls from the main window', async () => {
    const { ipc, window, notified } = await started();
    const id = window.webContents.id;
    expect(await ipc.invoke(id, DESKTOP_CHANNELS.openWorkspace)).toBe('/home/me/project');
    expect(await ipc.invoke(id, DESKTOP_CHANNELS.daemonState)).toMatchObject({ state: 'running', crashes: 0 });
    ipc.send(id, DESKTOP_CHANNELS.notify, { title: 'Confirm', body: 'rm -rf build', sessionId: 's1' });
    expect(notified).toEqual([{ title: 'Confirm', body: 'rm -rf build', sessionId: 's1' }]);
  });

  it('refuses messages from any other webContents', async () => {
    const { ipc, window, notified, reported } = await started();
    const other = window.webContents.id + 1;
    await expect(ipc.invoke(other, DESKTOP_CHANNELS.openWorkspace)).rejects.toMatchObject({ envelope: { code: 'DESKTOP_IPC_SENDER_REFUSED', category: 'PERMISSION_DENIED' } });
    await expect(ipc.invoke(other, DESKTOP_CHANNELS.restartDaemon)).rejects.toMatchObject({ envelope: { code: 'DESKTOP_IPC_SENDER_REFUSED' } });
    ipc.send(other, DESKTOP_CHANNELS.notify, { title: 't', body: 'b', sessionId: 's' });
    expect(notified).toEqual([]);
    expect(reported.map((e) => e.code)).toEqual(['DESKTOP_IPC_SENDER_REFUSED']);
  });

  it('answers a bad payload with an envelope and keeps running', async () => {
    const { ipc, window, notified, reported, written, validated } = await started();
    const id = window.webContents.id;
    await expect(ipc.invoke(id, DESKTOP_CHANNELS.saveSettings, 'rm -rf /')).rejects.toMatchObject({ envelope: { code: 'DESKTOP_IPC_INVALID', category: 'VALIDATION_FAILED' } });
    await expect(ipc.invoke(id, DESKTOP_CHANNELS.saveSettings, { model: 'flat' })).rejects.toMatchObject({ envelope: { code: 'DESKTOP_IPC_INVALID' } });
    await expect(ipc.invoke(id, DESKTOP_CHANNELS.openWorkspace, '/etc')).rejects.toMatchObject({ envelope: { code: 'DESKTOP_IPC_INVALID' } });
    ipc.send(id, DESKTOP_CHANNELS.notify, { title: '', body: 'b', sessionId: 's' });
    ipc.send(id, DESKTOP_CHANNELS.notify, 'hello');
    expect(notified).toEqual([]);
    expect(reported.map((e) => e.code)).toEqual(['DESKTOP_IPC_INVALID', 'DESKTOP_IPC_INVALID']);
    expect(written).toEqual([]);
    expect(validated).toEqual([]);
    expect(await ipc.invoke(id, DESKTOP_CHANNELS.daemonState)).toMatchObject({ state: 'running' });
  });

  it('saveSettings refused by the daemon writes nothing', async () => {
    const { ipc, window, written } = await started();
    const outcome = await ipc.invoke(window.webContents.id, DESKTOP_CHANNELS.saveSettings, { model: { name: 'x' } });
    expect(outcome).toMatchObject({ ok: false, error: 'no', restored: false });
    expect(written).toEqual([]);
  });

  it('restartDaemon from the page ends a crash loop', async () => {
    const { ipc, window, daemons, clock } = await started();
    for (let i = 0; i < 3; i++) {
      daemons.last.crash(1, 'boom');
      await flush();
      if (i < 2) {
        await clock.advance(RESTART_DELAY_MS);
        await daemons.ready();
      }
    }
    const restarted = ipc.invoke(window.webContents.id, DESKTOP_CHANNELS.restartDaemon);
    await flush();
    await daemons.ready(7009);
    expect(await restarted).toMatchObject({ state: 'running', crashes: 0 });
    expect(window.loaded.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:7009\/login\?t=/);
  });

  it('stop removes every handler', async () => {
    const { ipc, main } = await started();
    await main.stop();
    expect(ipc.handlers.size).toBe(0);
    expect(ipc.listeners.get(DESKTOP_CHANNELS.notify)).toEqual([]);
  });
});
