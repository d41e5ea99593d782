import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Frontend, FrontendLaunch } from '@nodwyn/plugin-api';
import { desktopErrors } from './errors.js';

/** The variable naming the installed desktop app's executable, when the plugin's config does not. */
export const DESKTOP_APP_ENV = 'NODWYN_DESKTOP_APP';

/** Exit codes of the desktop front end (the app's own code otherwise). */
export const EXIT = {
  /** The app ended by a signal, or `launch.signal` stopped it. */
  aborted: 130,
} as const;

/**
 * The installed desktop app's executable: the plugin's `app` key (`[plugins."@nodwyn/plugin-frontend-electron"]`),
 * else `$NODWYN_DESKTOP_APP`. A clear envelope, saying how to get one, when neither names an existing file.
 */
export function desktopAppPath(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): string {
  const configured = typeof config.app === 'string' && config.app !== '' ? config.app : env[DESKTOP_APP_ENV];
  if (configured && existsSync(configured)) return configured;
  throw desktopErrors.error('DESKTOP_APP_NOT_INSTALLED', {
    operation: 'frontend.desktop.start',
    failed_parameter: configured ? 'app' : undefined,
    received_value: configured,
    expected: 'the path of the installed nodwyn desktop app (its executable)',
    remediation: configured
      ? `No desktop app at ${configured}. Install the nodwyn desktop app (an AppImage, .deb, .dmg or installer built from apps/desktop with electron-builder; see apps/desktop/README.md), then point ${DESKTOP_APP_ENV} or the plugin's \`app\` key at its executable.`
      : `No desktop app is configured. Build and package it from apps/desktop (\`npm run build -w @nodwyn/desktop\`, then electron-builder; see apps/desktop/README.md), install it, and set ${DESKTOP_APP_ENV} (or \`app\` under [plugins."@nodwyn/plugin-frontend-electron"] in config.toml) to its executable. Or use \`nodwyn web\`.`,
    retryable: 'after_remediation',
  });
}

/**
 * The desktop front end: starts the installed desktop app in the workspace, with this process's
 * environment (so its `NODWYN_HOME`), and waits for the person to close it. It needs the daemon
 * (`daemon: true`): nodwyn starts `nodwyn serve` first, and the app attaches to that daemon through
 * serve.json, so the connected `launch.client` is not handed over.
 */
export function desktopFrontend(config: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv = process.env): Frontend {
  return {
    id: 'desktop',
    daemon: true,
    description: 'The desktop app: the web console in its own window, with notifications and a native folder picker',
    start: async (launch) => runApp(desktopAppPath(config, env), launch, env),
  };
}

function runApp(app: string, launch: FrontendLaunch, env: NodeJS.ProcessEnv): Promise<number> {
  if (launch.signal.aborted) return Promise.resolve(EXIT.aborted);
  return new Promise((resolve, reject) => {
    const child = spawn(app, [...launch.args], { cwd: launch.workspace, env, stdio: 'inherit' });
    const onAbort = () => child.kill('SIGTERM');
    launch.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      launch.signal.removeEventListener('abort', onAbort);
      reject(
        desktopErrors.error(
          'DESKTOP_APP_START_FAILED',
          { operation: 'frontend.desktop.start', received_value: app, remediation: `The desktop app at ${app} could not be started (${error.message}). Check that it is executable, or reinstall it.` },
          error,
        ),
      );
    });
    child.once('close', (code) => {
      launch.signal.removeEventListener('abort', onAbort);
      resolve(code ?? EXIT.aborted);
    });
  });
}
