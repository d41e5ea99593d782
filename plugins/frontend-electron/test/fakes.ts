import type { Clock } from '../src/main/clock.js';
import type { DaemonChild, DaemonExit, DaemonSpawner } from '../src/main/daemon-child.js';
import type { DaemonEndpoint } from '../src/main/daemon-endpoint.js';
import type { IpcEventLike, IpcMainLike, NavigationEventLike, WindowLike, WindowOpenAnswer, WindowOptions } from '../src/main/electron-like.js';

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A clock moved by hand: `advance` runs the timers that fall due, in order. */
export class FakeClock implements Clock {
  private time = 1_000_000;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    await flush();
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
      await flush();
    }
    this.time = end;
    await flush();
  }
}

/** A daemon child the test drives: it becomes ready, crashes or is stopped when told. */
export class FakeChild implements DaemonChild {
  readonly ready: Promise<string>;
  readonly exited: Promise<DaemonExit>;
  stopped = false;
  private resolveReady!: (url: string) => void;
  private rejectReady!: (error: Error) => void;
  private resolveExit!: (exit: DaemonExit) => void;
  private stderr = '';

  constructor(readonly pid: number) {
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => undefined);
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
  }

  becomeReady(url: string): void {
    this.resolveReady(url);
  }

  crash(code: number, stderr: string): void {
    this.stderr += stderr;
    this.rejectReady(new Error('exited'));
    this.resolveExit({ code, signal: null });
  }

  lastError(): string {
    return this.stderr.trim();
  }

  stop(): void {
    this.stopped = true;
    this.rejectReady(new Error('stopped'));
    this.resolveExit({ code: null, signal: 'SIGTERM' });
  }
}

/** Spawns FakeChild daemons and keeps the serve.json each would write. */
export class FakeDaemons {
  readonly children: FakeChild[] = [];
  serveFile: DaemonEndpoint | undefined;
  private nextPid = 4000;

  readonly spawn: DaemonSpawner = () => {
    const child = new FakeChild(this.nextPid++);
    this.children.push(child);
    return child;
  };

  readonly readServeFile = async (): Promise<DaemonEndpoint | undefined> => this.serveFile;

  get last(): FakeChild {
    const child = this.children.at(-1);
    if (!child) throw new Error('no child was spawned');
    return child;
  }

  /** The latest child writes serve.json on port `port` and prints its URL. */
  async ready(port = 7000 + this.children.length): Promise<DaemonEndpoint> {
    const child = this.last;
    const endpoint = { url: `ws://127.0.0.1:${port}/acp`, http: `http://127.0.0.1:${port}/`, token: `token-${child.pid}`, pid: child.pid };
    this.serveFile = endpoint;
    child.becomeReady(endpoint.url);
    await flush();
    return endpoint;
  }
}

type Listener = (event: NavigationEventLike, url: string) => void;

/** A BrowserWindow that records what main did to it, and lets the test act as the page. */
export class FakeWindow implements WindowLike {
  readonly loaded: string[] = [];
  readonly sent: { channel: string; args: unknown[] }[] = [];
  shown = false;
  private readonly listeners = new Map<string, Listener[]>();
  private openHandler: ((details: { url: string }) => WindowOpenAnswer) | undefined;
  readonly webContents = {
    id: 11,
    setWindowOpenHandler: (handler: (details: { url: string }) => WindowOpenAnswer) => {
      this.openHandler = handler;
    },
    on: (event: 'will-navigate' | 'will-redirect', listener: Listener) => {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    },
    send: (channel: string, ...args: unknown[]) => {
      this.sent.push({ channel, args });
    },
  };

  constructor(readonly options: WindowOptions) {}

  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }

  show(): void {
    this.shown = true;
  }

  isDestroyed(): boolean {
    return false;
  }

  /** The page navigates (or is redirected) to `url`; answers whether main cancelled it. */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    let prevented = false;
    for (const listener of this.listeners.get(event) ?? []) listener({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  }

  /** The page calls `window.open(url)`. */
  open(url: string): WindowOpenAnswer | undefined {
    return this.openHandler?.({ url });
  }
}

type Handler = (event: IpcEventLike, ...args: unknown[]) => unknown;

/** ipcMain: the test invokes channels as a page would. */
export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  readonly listeners = new Map<string, Handler[]>();

  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`a handler for ${channel} exists`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  on(channel: string, listener: Handler): void {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
  }

  removeListener(channel: string, listener: Handler): void {
    this.listeners.set(channel, (this.listeners.get(channel) ?? []).filter((l) => l !== listener));
  }

  /** `ipcRenderer.invoke` from the webContents `senderId`. */
  async invoke(senderId: number, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler({ sender: { id: senderId } }, ...args);
  }

  /** `ipcRenderer.send` from the webContents `senderId`. */
  send(senderId: number, channel: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener({ sender: { id: senderId } }, ...args);
  }
}
