// The desktop app's composition root: Electron's real objects handed to DesktopMain, which holds every
// decision (window fencing, daemon supervision, settings) and is tested with fakes in
// plugins/frontend-electron. Keep this file wiring only.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { BrowserWindow, Menu, Notification, app, dialog, ipcMain, shell } from 'electron';
import { defaultNodwynHome } from '@nodwyn/client/node';
import { DaemonSupervisor, DesktopMain, nodeConfigStore, nodeDaemonSpawner, parseServeFile, systemClock } from '@nodwyn/plugin-frontend-electron/main';
import { nodwynCommand } from './nodwyn-command.js';
import { daemonSettingsValidator } from './settings-validator.js';

const VERSION = '0.1.0';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function configFile(env: NodeJS.ProcessEnv): string {
  if (env.NODWYN_HOME) return join(env.NODWYN_HOME, 'config.toml');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'nodwyn', 'config.toml');
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) return app.quit();
  await app.whenReady();
  const env = process.env;
  const home = defaultNodwynHome(env);
  const supervisor = new DaemonSupervisor({
    home,
    spawn: nodeDaemonSpawner(nodwynCommand({ env, execPath: process.execPath, resourcesPath: app.isPackaged ? process.resourcesPath : undefined }), env, Boolean(env.NODWYN_HOME)),
    readServeFile: async (dir) => parseServeFile(await readFile(join(dir, 'serve.json'), 'utf8').catch(() => '')),
    clock: systemClock,
    isAlive,
    terminate: (pid) => process.kill(pid, 'SIGTERM'),
  });
  let window: BrowserWindow | undefined;
  const desktop = new DesktopMain({
    createWindow: (options) => (window = new BrowserWindow(options)),
    ipcMain,
    supervisor,
    config: nodeConfigStore(configFile(env)),
    validateSettings: daemonSettingsValidator(VERSION),
    fetch: (url, init) => fetch(url, init),
    preload: join(__dirname, 'preload.cjs'),
    notify: (notification, onClick) => {
      if (!Notification.isSupported()) return;
      new Notification({ title: notification.title, body: notification.body }).on('click', onClick).show();
    },
    chooseFolder: async () => {
      if (!window) return undefined;
      const chosen = await dialog.showOpenDialog(window, { title: 'Open a workspace', properties: ['openDirectory', 'createDirectory'] });
      return chosen.canceled ? undefined : chosen.filePaths[0];
    },
    openExternal: (url) => void shell.openExternal(url),
    report: (envelope) => process.stderr.write(`nodwyn-desktop: ${JSON.stringify(envelope)}\n`),
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      { role: 'appMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { label: 'Daemon', submenu: [{ label: 'Restart', accelerator: 'CmdOrCtrl+Shift+R', click: () => void desktop.restartDaemon() }] },
      { role: 'windowMenu' },
    ]),
  );
  app.on('window-all-closed', () => app.quit());
  let stopping = false;
  app.on('before-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    void desktop.stop().finally(() => app.exit(0));
  });
  await desktop.start();
}

void main().catch((error: unknown) => {
  process.stderr.write(`nodwyn-desktop: ${(error as Error).message}\n`);
  app.exit(1);
});
