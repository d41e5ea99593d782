import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nodwyn command of this repository (the bundled CLI). */
export const BIN = fileURLToPath(new URL('../../../apps/cli/bin/nodwyn.mjs', import.meta.url));

/** What serve.json says. */
export interface ServeJson {
  readonly url: string;
  readonly http: string;
  readonly token: string;
  readonly pid: number;
}

/**
 * A real `nodwyn serve --port 0` in a temp NODWYN_HOME with the scripted provider playing `replies`,
 * its output kept (to check that a secret never shows there).
 */
export class Daemon {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-web-e2e-')));
  readonly home = join(this.root, 'home');
  readonly workspace = join(this.root, 'workspace');
  output = '';
  private child: ChildProcess | undefined;
  info!: ServeJson;

  constructor(replies: readonly unknown[]) {
    mkdirSync(this.home);
    mkdirSync(this.workspace);
    const script = join(this.root, 'script.json');
    writeFileSync(script, JSON.stringify({ replies }));
    writeFileSync(join(this.home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
  }

  get env(): NodeJS.ProcessEnv {
    return { PATH: process.env.PATH, HOME: this.root, NODWYN_HOME: this.home, NODWYN_KEYCHAIN_PASSPHRASE: 'web-e2e-passphrase' };
  }

  /** Starts the daemon; resolves once it printed its URL and serve.json is written. */
  async start(): Promise<ServeJson> {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: this.workspace, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    // Ready once stdout has its URL line (written after serve.json); stderr may speak first.
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      this.output += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
    if (child.exitCode !== null) throw new Error(`nodwyn serve exited ${child.exitCode}: ${this.output}`);
    this.info = JSON.parse(readFileSync(join(this.home, 'serve.json'), 'utf8')) as ServeJson;
    return this.info;
  }

  /** The daemon's origin, `http://127.0.0.1:PORT`. */
  get origin(): string {
    return new URL(this.info.http).origin;
  }

  /** A one-time login link, asked for over HTTP with the daemon's bearer token. */
  async loginLink(): Promise<string> {
    const response = await fetch(`${this.origin}/_nodwyn/login-link`, { method: 'POST', headers: { authorization: `Bearer ${this.info.token}` } });
    if (response.status !== 200) throw new Error(`login-link answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { url: string }).url;
  }

  stop(): void {
    this.child?.kill('SIGKILL');
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** Waits until `check()` holds, polling; throws after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
