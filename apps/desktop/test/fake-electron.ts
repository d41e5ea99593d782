/** Stand-ins for the `electron` module's objects main.ts and preload.ts use, recording what they were given. */

type Listener = (...args: unknown[]) => unknown;

/** A BrowserWindow that records its options and the pages it loaded. */
export class FakeBrowserWindow {
  static readonly made: FakeBrowserWindow[] = [];
  readonly loaded: string[] = [];
  readonly sent: unknown[][] = [];
  readonly webContents = {
    id: 7,
    setWindowOpenHandler: (handler: Listener) => void (this.openHandler = handler),
    on: (event: string, listener: Listener) => void this.events.set(event, listener),
    send: (...args: unknown[]) => void this.sent.push(args),
  };
  openHandler: Listener | undefined;
  readonly events = new Map<string, Listener>();

  constructor(readonly options: Record<string, unknown>) {
    FakeBrowserWindow.made.push(this);
  }

  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }

  show(): void {}

  focus(): void {}

  isDestroyed(): boolean {
    return false;
  }
}

/** The fake `electron` module for the main process bundle. */
export function fakeMainElectron() {
  const appEvents = new Map<string, Listener>();
  const handlers = new Map<string, Listener>();
  let exitCode: number | undefined;
  const electron = {
    app: {
      isPackaged: false,
      whenReady: async () => undefined,
      on: (event: string, listener: Listener) => void appEvents.set(event, listener),
      quit: () => undefined,
      exit: (code = 0) => void (exitCode = code),
      requestSingleInstanceLock: () => true,
    },
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: (channel: string, listener: Listener) => void handlers.set(channel, listener),
      removeHandler: (channel: string) => void handlers.delete(channel),
      on: (channel: string, listener: Listener) => void handlers.set(channel, listener),
      removeListener: (channel: string) => void handlers.delete(channel),
    },
    Menu: { buildFromTemplate: (template: unknown) => template, setApplicationMenu: () => undefined },
    Notification: class {
      static isSupported = () => false;
    },
    dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
    shell: { openExternal: async () => undefined },
  };
  return { electron, appEvents, handlers, exitCode: () => exitCode };
}
