import { spawn } from 'node:child_process';

/** How long an opener may run before it counts as started (a browser may keep running). */
const SETTLE_MS = 3000;

/** What `openBrowser` looks at: the environment and the platform (tests give their own). */
export interface OpenBrowserOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
}

/**
 * Opens `url` in the person's browser: `$BROWSER` (its first `:`-separated entry; `%s` stands for the URL,
 * else the URL is its last argument), else `xdg-open` (Linux, only with a DISPLAY or WAYLAND_DISPLAY),
 * `open` (macOS), `start` (Windows). Resolves true when the opener started and did not fail within a few
 * seconds; false when there is none or it failed, so the caller prints the URL instead. The URL is
 * passed as one argument, never through a shell.
 */
export function openBrowser(url: string, options: OpenBrowserOptions = {}): Promise<boolean> {
  const command = openerCommand(url, options.env ?? process.env, options.platform ?? process.platform);
  if (command === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, SETTLE_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/** The command that opens `url`, or undefined when this machine has no way to show a browser. */
export function openerCommand(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] | undefined {
  const browser = env.BROWSER?.split(':')[0]?.trim();
  if (browser) {
    const words = browser.split(/\s+/);
    return words.some((w) => w.includes('%s')) ? words.map((w) => w.replaceAll('%s', url)) : [...words, url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '', url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', url];
}
