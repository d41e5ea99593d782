import { z } from 'zod';

/**
 * The desktop app's bridge: what its preload script exposes to the web console's page as
 * `window.nodwynDesktop` (docs/frontends.md), and nothing more. The page stays a client of the daemon
 * like any browser tab; the bridge only adds what a browser cannot do. Every call crosses Electron's IPC
 * on one of `DESKTOP_CHANNELS`, and the main process checks what arrives with the schemas below.
 */
export const DESKTOP_CHANNELS = {
  /** invoke → string | null: a native folder picker; the chosen workspace's absolute path. */
  openWorkspace: 'nodwyn:open-workspace',
  /** send: a pending confirmation the person should see even when the window is not focused. */
  notify: 'nodwyn:notify',
  /** invoke → DaemonState. */
  daemonState: 'nodwyn:daemon-state',
  /** main → page: the daemon's state changed. */
  daemonStateChanged: 'nodwyn:daemon-state-changed',
  /** invoke(settings) → SettingsSaveOutcome: validate, save, restart the daemon; restore on failure. */
  saveSettings: 'nodwyn:save-settings',
  /** invoke → DaemonState: start the daemon again after crash-loop protection stopped it. */
  restartDaemon: 'nodwyn:restart-daemon',
} as const;

/** Where the daemon child stands, as the window shows it. */
export const DaemonStateSchema = z.object({
  state: z.enum(['starting', 'running', 'restarting', 'stopped', 'crash-loop', 'failed']),
  pid: z.number().int().positive().optional(),
  /** Crashes within the crash-loop window (three within 30 s stop the restarts). */
  crashes: z.number().int().nonnegative(),
  /** The last error: why it crashed, or why it failed to start. */
  lastError: z.string().optional(),
});
/** Where the daemon child stands. */
export type DaemonState = z.infer<typeof DaemonStateSchema>;

/** A pending confirmation's notification. */
export const DesktopNotificationSchema = z.object({
  title: z.string().min(1).max(200),
  body: z.string().max(1000),
  sessionId: z.string().min(1).max(200),
});
/** A pending confirmation's notification. */
export type DesktopNotification = z.infer<typeof DesktopNotificationSchema>;

/** What saving settings through the desktop app came to: saved and restarted, or restored with the error. */
export type SettingsSaveOutcome =
  | { readonly ok: true; readonly state: DaemonState }
  | { readonly ok: false; readonly error: string; readonly restored: boolean; readonly state: DaemonState };

/** `window.nodwynDesktop`: the whole surface the page can reach. */
export interface DesktopBridge {
  readonly version: 1;
  openWorkspace(): Promise<string | null>;
  notify(notification: DesktopNotification): void;
  daemonState(): Promise<DaemonState>;
  onDaemonState(listener: (state: DaemonState) => void): () => void;
  saveSettings(settings: Record<string, Record<string, unknown>>): Promise<SettingsSaveOutcome>;
  restartDaemon(): Promise<DaemonState>;
}
