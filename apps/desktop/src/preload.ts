// The desktop window's preload: runs sandboxed, before the page, and exposes exactly `DesktopBridge` as
// `window.nodwynDesktop` (docs/frontends.md). The page never sees ipcRenderer, require or process.
import { contextBridge, ipcRenderer } from 'electron';
import { createDesktopBridge } from '@nodwyn/plugin-frontend-electron/preload';

contextBridge.exposeInMainWorld('nodwynDesktop', createDesktopBridge(ipcRenderer));
