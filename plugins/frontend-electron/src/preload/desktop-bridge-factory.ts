import { DESKTOP_CHANNELS, DaemonStateSchema, type DaemonState, type DesktopBridge, type DesktopNotification, type SettingsSaveOutcome } from '@nodwyn/protocol/desktop-bridge';

/** `ipcRenderer`, as the preload uses it (Electron's satisfies it). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * The object the preload exposes as `window.nodwynDesktop`: exactly `DesktopBridge`'s members, frozen.
 * Each is a closure over `ipcRenderer` on a fixed channel, so the page can reach neither `ipcRenderer`
 * nor any other channel, and a listener never receives Electron's event object (it holds the sender).
 */
export function createDesktopBridge(ipc: IpcRendererLike): DesktopBridge {
  const bridge: DesktopBridge = {
    version: 1,
    openWorkspace: async () => {
      const chosen = await ipc.invoke(DESKTOP_CHANNELS.openWorkspace);
      return typeof chosen === 'string' ? chosen : null;
    },
    notify: (notification: DesktopNotification) => {
      ipc.send(DESKTOP_CHANNELS.notify, { title: notification.title, body: notification.body, sessionId: notification.sessionId });
    },
    daemonState: async () => DaemonStateSchema.parse(await ipc.invoke(DESKTOP_CHANNELS.daemonState)),
    onDaemonState: (listener: (state: DaemonState) => void) => {
      const relay = (_event: unknown, state: unknown) => {
        const parsed = DaemonStateSchema.safeParse(state);
        if (parsed.success) listener(parsed.data);
      };
      ipc.on(DESKTOP_CHANNELS.daemonStateChanged, relay);
      return () => {
        ipc.removeListener(DESKTOP_CHANNELS.daemonStateChanged, relay);
      };
    },
    saveSettings: async (settings: Record<string, Record<string, unknown>>) => (await ipc.invoke(DESKTOP_CHANNELS.saveSettings, settings)) as SettingsSaveOutcome,
    restartDaemon: async () => DaemonStateSchema.parse(await ipc.invoke(DESKTOP_CHANNELS.restartDaemon)),
  };
  return Object.freeze(bridge);
}
