// The part of Electron 45's API (https://www.electronjs.org/docs/latest/api) that main.ts and preload.ts
// use, declared here because no Electron package can be installed on the project's machines (no binary
// download; electron 45 also declares node >= 22.12). The signatures are copied from Electron's own
// typings, narrowed to what is called; a build machine with Electron type-checks against the same subset.
declare module 'electron' {
  interface NavigationEvent {
    preventDefault(): void;
  }
  interface HandlerDetails {
    url: string;
  }
  interface WebContents {
    readonly id: number;
    setWindowOpenHandler(handler: (details: HandlerDetails) => { action: 'deny' } | { action: 'allow' }): void;
    on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent, url: string) => void): this;
    send(channel: string, ...args: unknown[]): void;
  }
  interface WebPreferences {
    preload?: string;
    contextIsolation?: boolean;
    nodeIntegration?: boolean;
    sandbox?: boolean;
    webSecurity?: boolean;
  }
  interface BrowserWindowConstructorOptions {
    width?: number;
    height?: number;
    title?: string;
    show?: boolean;
    webPreferences?: WebPreferences;
  }
  class BrowserWindow {
    constructor(options?: BrowserWindowConstructorOptions);
    readonly webContents: WebContents;
    loadURL(url: string): Promise<void>;
    show(): void;
    focus(): void;
    isDestroyed(): boolean;
  }
  interface IpcMainEvent {
    readonly sender: WebContents;
  }
  interface IpcMain {
    handle(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => unknown): void;
    removeHandler(channel: string): void;
    on(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => void): this;
    removeListener(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => void): this;
  }
  interface IpcRendererEvent {
    readonly sender: unknown;
  }
  interface IpcRenderer {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    send(channel: string, ...args: unknown[]): void;
    on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): this;
    removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): this;
  }
  interface OpenDialogReturnValue {
    canceled: boolean;
    filePaths: string[];
  }
  interface MenuItemConstructorOptions {
    label?: string;
    role?: 'appMenu' | 'fileMenu' | 'editMenu' | 'viewMenu' | 'windowMenu' | 'quit';
    accelerator?: string;
    click?: () => void;
    submenu?: MenuItemConstructorOptions[];
  }
  class Menu {
    static buildFromTemplate(template: MenuItemConstructorOptions[]): Menu;
    static setApplicationMenu(menu: Menu | null): void;
  }
  class Notification {
    constructor(options: { title: string; body: string });
    static isSupported(): boolean;
    show(): void;
    on(event: 'click', listener: () => void): this;
  }
  const app: {
    readonly isPackaged: boolean;
    whenReady(): Promise<void>;
    on(event: 'window-all-closed', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: NavigationEvent) => void): unknown;
    quit(): void;
    exit(code?: number): void;
    requestSingleInstanceLock(): boolean;
  };
  const ipcMain: IpcMain;
  const ipcRenderer: IpcRenderer;
  const contextBridge: { exposeInMainWorld(apiKey: string, api: unknown): void };
  const dialog: {
    showOpenDialog(window: BrowserWindow, options: { title?: string; properties: ('openDirectory' | 'createDirectory')[] }): Promise<OpenDialogReturnValue>;
  };
  const shell: { openExternal(url: string): Promise<void> };
}

declare namespace NodeJS {
  interface Process {
    /** Electron: the folder of the packaged app's resources (extraResources land here). */
    readonly resourcesPath: string;
  }
}
