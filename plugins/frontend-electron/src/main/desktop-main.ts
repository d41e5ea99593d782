import { DESKTOP_CHANNELS, type DaemonState, type DesktopNotification, type Envelope, type Settings, type SettingsSaveOutcome } from '@nodwyn/protocol';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import type { ConfigStore } from './config-store.js';
import type { DaemonSupervisor } from './daemon-supervisor.js';
import { desktopErrors } from '../errors.js';
import { registerDesktopIpc } from './desktop-ipc.js';
import type { IpcMainLike, WindowFactory, WindowLike } from './electron-like.js';
import { fetchLoginLink, type FetchLike } from './login-link.js';
import { createSecureWindow, type ExternalOpener } from './secure-window.js';
import { saveSettings, type SettingsValidator } from './settings-saver.js';
import { statusPage } from './status-page.js';

/** Everything the desktop main process needs from Electron and the machine, injected. */
export interface DesktopMainDeps {
  readonly createWindow: WindowFactory;
  readonly ipcMain: IpcMainLike;
  readonly supervisor: DaemonSupervisor;
  readonly config: ConfigStore;
  readonly validateSettings: SettingsValidator;
  readonly fetch: FetchLike;
  /** Absolute path of the built preload script. */
  readonly preload: string;
  /** Shows a system notification; `onClick` brings the window forward. */
  readonly notify: (notification: DesktopNotification, onClick: () => void) => void;
  /** A native folder picker; `undefined` when the person cancelled. */
  readonly chooseFolder: () => Promise<string | undefined>;
  readonly openExternal?: ExternalOpener;
  /** Where refused messages and failed page loads are reported (main's stderr). */
  readonly report: (envelope: Envelope) => void;
}

/**
 * The desktop app's main process: one window showing the web console of a daemon it supervises. The
 * window is sandboxed and fenced to the daemon's origin; it gets in by a one-time login link (the bearer
 * token never leaves main); each time a daemon comes up (first start, restart after a crash, new
 * settings) the window loads a fresh link, and the page reopens its sessions from the log. Main never
 * resends a prompt: what was pending when a daemon crashed stays as the log has it (docs/frontends.md).
 */
export class DesktopMain {
  private window: WindowLike | undefined;
  private shownPid: number | undefined;
  private disposers: (() => void)[] = [];
  /** The page update under way, so `start` (and tests) can wait for the window to settle. */
  private latest: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DesktopMainDeps) {}

  /** Opens the window, wires the bridge, and starts (or attaches to) the daemon. */
  async start(): Promise<WindowLike> {
    const { deps } = this;
    const window = createSecureWindow(deps.createWindow, deps.preload, () => this.allowedOrigin(), deps.openExternal);
    this.window = window;
    this.disposers.push(
      registerDesktopIpc(deps.ipcMain, this.handlers(), { senderId: () => window.webContents.id, onRefused: deps.report }),
      deps.supervisor.onChange((state) => {
        this.latest = this.latest.then(() => this.stateChanged(state)).catch((error: unknown) => deps.report(pageFailed(String(error))));
      }),
    );
    await this.show(statusPage({ state: 'starting', crashes: 0 }));
    window.show();
    await deps.supervisor.start();
    await this.settled();
    return window;
  }

  /** Resolves once the window shows what the daemon's latest state calls for. */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.latest) {
      seen = this.latest;
      await seen;
    }
  }

  /** The person's restart (the bridge, or the app menu). */
  restartDaemon(): Promise<DaemonState> {
    return this.deps.supervisor.restart();
  }

  /** Removes the IPC handlers and stops the daemon child. */
  async stop(): Promise<void> {
    for (const dispose of this.disposers.splice(0)) dispose();
    await this.deps.supervisor.stop();
  }

  private handlers() {
    const { deps } = this;
    return {
      openWorkspace: async () => (await deps.chooseFolder()) ?? null,
      notify: (notification: DesktopNotification) => deps.notify(notification, () => this.window?.show()),
      daemonState: () => deps.supervisor.state(),
      saveSettings: (settings: Settings): Promise<SettingsSaveOutcome> => saveSettings(settings, { supervisor: deps.supervisor, config: deps.config, validate: deps.validateSettings }),
      restartDaemon: () => this.restartDaemon(),
    };
  }

  private allowedOrigin(): string | undefined {
    const endpoint = this.deps.supervisor.endpoint();
    return endpoint ? new URL(endpoint.http).origin : undefined;
  }

  /** Tells the page, and loads a fresh login link when a new daemon runs (or the status page when none). */
  private async stateChanged(state: DaemonState): Promise<void> {
    const window = this.window;
    if (!window || window.isDestroyed()) return;
    window.webContents.send(DESKTOP_CHANNELS.daemonStateChanged, state);
    const endpoint = this.deps.supervisor.endpoint();
    if (state.state === 'running' && endpoint && endpoint.pid !== this.shownPid) {
      this.shownPid = endpoint.pid;
      try {
        await this.show(await fetchLoginLink(endpoint, this.deps.fetch));
      } catch (error) {
        this.deps.report(isEnvelopeError(error) ? error.envelope : pageFailed(String(error)));
      }
    } else if (state.state === 'crash-loop' || state.state === 'failed') {
      this.shownPid = undefined;
      await this.show(statusPage(state));
    }
  }

  /** Loads a page; a load that fails (the daemon went away mid-load) is reported, and the next state change loads again. */
  private async show(url: string): Promise<void> {
    await this.window?.loadURL(url).catch((error: Error) => this.deps.report(pageFailed(error.message)));
  }
}

function pageFailed(why: string): Envelope {
  return desktopErrors.envelope('DESKTOP_PAGE_LOAD_FAILED', {
    operation: 'desktop.window.load',
    remediation: `The window could not load the console (${why}). Restart the daemon from the app menu.`,
  });
}
