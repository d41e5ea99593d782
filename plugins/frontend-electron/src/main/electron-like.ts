/**
 * The parts of Electron's main-process API the desktop main uses, as structural interfaces: the real
 * objects (`BrowserWindow`, `ipcMain`) satisfy them, and tests hand in fakes. Nothing here imports
 * `electron`, which cannot run outside an Electron binary.
 */

/** `BrowserWindow`'s `webPreferences`, as the desktop main always sets them (docs/frontends.md). */
export interface SecureWebPreferences {
  readonly contextIsolation: true;
  readonly nodeIntegration: false;
  readonly sandbox: true;
  readonly webSecurity: true;
  /** Absolute path of the preload script. */
  readonly preload: string;
}

/** What the window factory is given (a subset of `BrowserWindowConstructorOptions`). */
export interface WindowOptions {
  readonly width: number;
  readonly height: number;
  readonly title: string;
  /** Shown once the first page is loaded. */
  readonly show: false;
  readonly webPreferences: SecureWebPreferences;
}

/** A navigation event the handler may cancel. */
export interface NavigationEventLike {
  preventDefault(): void;
}

/** What `setWindowOpenHandler`'s handler answers. */
export type WindowOpenAnswer = { action: 'deny' };

/** A window's `webContents`. */
export interface WebContentsLike {
  readonly id: number;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenAnswer): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEventLike, url: string) => void): unknown;
  send(channel: string, ...args: unknown[]): void;
}

/** A `BrowserWindow`. */
export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  isDestroyed(): boolean;
}

/** Makes the main window (`new BrowserWindow(options)`). */
export type WindowFactory = (options: WindowOptions) => WindowLike;

/** The event an IPC listener receives: who sent it. */
export interface IpcEventLike {
  readonly sender: { readonly id: number };
}

/** `ipcMain`. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): unknown;
}

