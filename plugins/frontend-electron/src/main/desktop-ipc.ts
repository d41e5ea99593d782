import { DESKTOP_CHANNELS, DesktopNotificationSchema, SettingsSchema, type DaemonState, type DesktopNotification, type Settings, type SettingsSaveOutcome, type Envelope } from '@nodwyn/protocol';
import { desktopErrors } from '../errors.js';
import type { IpcEventLike, IpcMainLike } from './electron-like.js';

/** What the bridge's calls do in main. */
export interface DesktopIpcHandlers {
  openWorkspace(): Promise<string | null>;
  notify(notification: DesktopNotification): void;
  daemonState(): DaemonState;
  saveSettings(settings: Settings): Promise<SettingsSaveOutcome>;
  restartDaemon(): Promise<DaemonState>;
}

/** Checks one message's sender and payload. */
interface IpcGate {
  /** The main window's `webContents.id`: the one sender accepted. */
  readonly senderId: () => number | undefined;
  /** Told of a `send` (no reply) that was refused, since nobody else would hear of it. */
  readonly onRefused: (envelope: Envelope) => void;
}

/**
 * Registers the bridge's channels on `ipcMain`. Every message is checked before anything runs: it must
 * come from the main window's page, and its payload must match the channel's schema; a refused `invoke`
 * rejects with the envelope (the page's promise fails, main goes on), a refused `send` is reported to
 * `onRefused`. Answers the function that removes them.
 */
export function registerDesktopIpc(ipc: IpcMainLike, handlers: DesktopIpcHandlers, gate: IpcGate): () => void {
  const checkSender = (event: IpcEventLike, channel: string) => {
    if (event.sender.id !== gate.senderId()) throw refusedSender(channel, event);
  };
  const noArguments = (channel: string, args: unknown[]) => {
    if (args.length > 0) throw invalid(channel, 'no arguments', args);
  };
  const invoke = (channel: string, run: (args: unknown[]) => unknown) => {
    ipc.handle(channel, async (event, ...args) => {
      checkSender(event, channel);
      return run(args);
    });
  };
  invoke(DESKTOP_CHANNELS.openWorkspace, (args) => {
    noArguments(DESKTOP_CHANNELS.openWorkspace, args);
    return handlers.openWorkspace();
  });
  invoke(DESKTOP_CHANNELS.daemonState, (args) => {
    noArguments(DESKTOP_CHANNELS.daemonState, args);
    return handlers.daemonState();
  });
  invoke(DESKTOP_CHANNELS.restartDaemon, (args) => {
    noArguments(DESKTOP_CHANNELS.restartDaemon, args);
    return handlers.restartDaemon();
  });
  invoke(DESKTOP_CHANNELS.saveSettings, (args) => {
    const parsed = SettingsSchema.safeParse(args[0]);
    if (args.length !== 1 || !parsed.success) throw invalid(DESKTOP_CHANNELS.saveSettings, '{ section: { key: value } }', args);
    return handlers.saveSettings(parsed.data);
  });
  const onNotify = (event: IpcEventLike, ...args: unknown[]) => {
    if (event.sender.id !== gate.senderId()) {
      gate.onRefused(refusedSender(DESKTOP_CHANNELS.notify, event).envelope);
      return;
    }
    const parsed = DesktopNotificationSchema.safeParse(args[0]);
    if (args.length !== 1 || !parsed.success) {
      gate.onRefused(invalid(DESKTOP_CHANNELS.notify, '{ title, body, sessionId }', args).envelope);
      return;
    }
    handlers.notify(parsed.data);
  };
  ipc.on(DESKTOP_CHANNELS.notify, onNotify);
  return () => {
    for (const channel of [DESKTOP_CHANNELS.openWorkspace, DESKTOP_CHANNELS.daemonState, DESKTOP_CHANNELS.restartDaemon, DESKTOP_CHANNELS.saveSettings]) ipc.removeHandler(channel);
    ipc.removeListener(DESKTOP_CHANNELS.notify, onNotify);
  };
}

function refusedSender(channel: string, event: IpcEventLike) {
  return desktopErrors.error('DESKTOP_IPC_SENDER_REFUSED', {
    operation: channel,
    received_value: `webContents ${event.sender.id}`,
    remediation: 'Only the nodwyn window may use the desktop bridge.',
  });
}

function invalid(channel: string, expected: string, args: unknown[]) {
  // Only the payload's shape is echoed: settings or a notification may hold text the person typed.
  const shape = args.map((arg) => (arg === null ? 'null' : Array.isArray(arg) ? 'array' : typeof arg)).join(', ');
  return desktopErrors.error('DESKTOP_IPC_INVALID', {
    operation: channel,
    received_value: `${args.length} argument(s): ${shape}`,
    expected,
    remediation: `The page sent ${channel} a payload that is not ${expected}; nothing was done.`,
  });
}
