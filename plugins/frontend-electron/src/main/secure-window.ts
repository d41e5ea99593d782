import type { WindowFactory, WindowLike, WindowOptions } from './electron-like.js';

/** Opens http(s) links in the person's browser (`shell.openExternal`). */
export type ExternalOpener = (url: string) => void;

/** The main window's options: the renderer is a web page, and gets nothing of Node (docs/frontends.md). */
export function secureWindowOptions(preload: string): WindowOptions {
  return {
    width: 1280,
    height: 860,
    title: 'nodwyn',
    show: false,
    webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true, webSecurity: true, preload },
  };
}

/** Whether `url` is on `origin` (`http://127.0.0.1:PORT`); a URL that does not parse is not. */
export function sameOrigin(url: string, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  try {
    return new URL(url).origin === origin;
  } catch {
    // Not a URL: refused like any other origin.
    return false;
  }
}

/**
 * Makes the main window and fences it in: it may navigate (or be redirected) only within the daemon's
 * origin, which `allowedOrigin` answers at each navigation (the port changes when the daemon restarts),
 * and it never opens a window; an http(s) link it tries to open goes to the system browser instead.
 */
export function createSecureWindow(factory: WindowFactory, preload: string, allowedOrigin: () => string | undefined, openExternal?: ExternalOpener): WindowLike {
  const window = factory(secureWindowOptions(preload));
  const contents = window.webContents;
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!sameOrigin(url, allowedOrigin())) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.setWindowOpenHandler(({ url }) => {
    if (openExternal && isWebLink(url)) openExternal(url);
    return { action: 'deny' };
  });
  return window;
}

function isWebLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    // Not a URL: nothing to open.
    return false;
  }
}
