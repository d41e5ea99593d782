import { DESKTOP_CHANNELS, type DaemonState } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { createDesktopBridge, type IpcRendererLike } from './desktop-bridge-factory.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

/** An ipcRenderer that records what the bridge sends and lets the test play main. */
class FakeIpcRenderer implements IpcRendererLike {
  readonly invoked: { channel: string; args: unknown[] }[] = [];
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly listeners = new Map<string, Set<Listener>>();
  answers: Record<string, unknown> = {};

  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.answers[channel];
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }

  on(channel: string, listener: Listener): void {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)?.add(listener);
  }

  removeListener(channel: string, listener: Listener): void {
    this.listeners.get(channel)?.delete(listener);
  }

  /** main's `webContents.send(channel, …args)`, with Electron's event object first. */
  emit(channel: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener({ sender: 'the ipcRenderer itself' }, ...args);
  }
}

const RUNNING: DaemonState = { state: 'running', pid: 42, crashes: 0 };

describe('createDesktopBridge', () => {
  it('has exactly the DesktopBridge members, frozen, and nothing of ipcRenderer, require or process', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createDesktopBridge(ipc);
    expect(Object.keys(bridge).sort()).toEqual(['daemonState', 'notify', 'onDaemonState', 'openWorkspace', 'restartDaemon', 'saveSettings', 'version']);
    expect(bridge.version).toBe(1);
    expect(Object.isFrozen(bridge)).toBe(true);
    for (const value of Object.values(bridge)) {
      expect(value).not.toBe(ipc);
      expect(value).not.toBe(process);
    }
    const reachable = bridge as unknown as Record<string, unknown>;
    for (const name of ['ipcRenderer', 'ipc', 'require', 'process', 'invoke', 'send', 'on']) expect(reachable[name]).toBeUndefined();
    expect(() => {
      reachable.extra = 1;
    }).toThrow();
  });

  it('each call goes on its own channel', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answers = {
      [DESKTOP_CHANNELS.openWorkspace]: '/home/me/w',
      [DESKTOP_CHANNELS.daemonState]: RUNNING,
      [DESKTOP_CHANNELS.restartDaemon]: { state: 'running', crashes: 0 },
      [DESKTOP_CHANNELS.saveSettings]: { ok: true, state: RUNNING },
    };
    const bridge = createDesktopBridge(ipc);
    expect(await bridge.openWorkspace()).toBe('/home/me/w');
    expect(await bridge.daemonState()).toEqual(RUNNING);
    expect(await bridge.restartDaemon()).toEqual({ state: 'running', crashes: 0 });
    expect(await bridge.saveSettings({ model: { name: 'x' } })).toEqual({ ok: true, state: RUNNING });
    expect(ipc.invoked).toEqual([
      { channel: DESKTOP_CHANNELS.openWorkspace, args: [] },
      { channel: DESKTOP_CHANNELS.daemonState, args: [] },
      { channel: DESKTOP_CHANNELS.restartDaemon, args: [] },
      { channel: DESKTOP_CHANNELS.saveSettings, args: [{ model: { name: 'x' } }] },
    ]);
  });

  it('openWorkspace answers null when the person cancelled', async () => {
    const bridge = createDesktopBridge(new FakeIpcRenderer());
    expect(await bridge.openWorkspace()).toBeNull();
  });

  it('notify sends only the notification’s three fields', () => {
    const ipc = new FakeIpcRenderer();
    createDesktopBridge(ipc).notify({ title: 't', body: 'b', sessionId: 's', extra: 'dropped' } as never);
    expect(ipc.sent).toEqual([{ channel: DESKTOP_CHANNELS.notify, args: [{ title: 't', body: 'b', sessionId: 's' }] }]);
  });

  it('onDaemonState gives the state without Electron’s event, and its unsubscribe works', () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createDesktopBridge(ipc);
    const seen: unknown[][] = [];
    const off = bridge.onDaemonState((...args) => seen.push(args));
    ipc.emit(DESKTOP_CHANNELS.daemonStateChanged, RUNNING);
    ipc.emit(DESKTOP_CHANNELS.daemonStateChanged, { state: 'not-a-state' });
    expect(seen).toEqual([[RUNNING]]);
    off();
    expect(ipc.listeners.get(DESKTOP_CHANNELS.daemonStateChanged)?.size).toBe(0);
    ipc.emit(DESKTOP_CHANNELS.daemonStateChanged, RUNNING);
    expect(seen).toHaveLength(1);
  });
});
