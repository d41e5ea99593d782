import type { LogEvent } from '@nodwyn/protocol';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'nodwyn.mjs');

/** A temp NODWYN_HOME and workspace, and a way to run `nodwyn` in them as a real process. */
export class CliSandbox {
  readonly root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-e2e-')));
  readonly home = join(this.root, 'home');
  readonly workspace = join(this.root, 'workspace');

  constructor() {
    mkdirSync(this.home);
    mkdirSync(this.workspace);
  }

  get env(): NodeJS.ProcessEnv {
    return { PATH: process.env.PATH, HOME: this.root, NODWYN_HOME: this.home };
  }

  /** Writes a file in the workspace (or anywhere, given an absolute path). */
  write(path: string, content: string): string {
    const full = path.startsWith('/') ? path : join(this.workspace, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, content);
    return full;
  }

  /** Approves third-party plugins in the trust ledger as a person would (`nodwyn plugins approve NAME --yes`). */
  approve(...names: string[]): void {
    for (const name of names) {
      const out = this.run(['plugins', 'approve', name, '--yes']);
      if (out.code !== 0) throw new Error(`approving ${name} failed: ${out.stderr}`);
    }
  }

  /** Writes a scripted-provider script and returns its path. */
  script(replies: unknown[]): string {
    return this.write(join(this.root, `script-${Math.random().toString(36).slice(2)}.json`), JSON.stringify({ replies }));
  }

  /** Runs nodwyn to completion, in the workspace unless `cwd` says otherwise. */
  run(args: readonly string[], input?: string, cwd = this.workspace, extraEnv: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...this.env, ...extraEnv }, input, encoding: 'utf8', timeout: 30_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /**
   * Runs nodwyn without blocking this process's event loop, for tests whose servers run in this process
   * (spawnSync would stall them and the child with them).
   */
  runAsync(args: readonly string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: this.workspace, env: { ...this.env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    return new Promise((resolve) =>
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      }),
    );
  }

  /** Starts nodwyn and returns the child, for signals. */
  start(args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}) {
    return spawn(process.execPath, [BIN, ...args], { cwd: this.workspace, env: { ...this.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /**
   * Starts nodwyn with a terminal as its stdin and stdout (`script` makes one; stderr goes there too).
   * What is typed goes through the terminal's line discipline, so type only once nodwyn shows it reads.
   */
  inTerminal(args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}, cwd = this.workspace): TerminalRun {
    const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
    const child = spawn('script', ['-qec', [process.execPath, BIN, ...args].map(quote).join(' '), '/dev/null'], { cwd, env: { ...this.env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      }),
    );
    // Closing script's stdin would type Ctrl-D into the terminal: it stays open until nodwyn is done.
    void exited.then(() => child.stdin.end());
    return {
      output: () => output,
      type: (text) => child.stdin.write(text),
      exited,
      waitFor: async (text) => {
        for (let waited = 0; !output.includes(text); waited += 20) {
          if (waited > 20_000) throw new Error(`the terminal never showed ${JSON.stringify(text)}; it shows:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
    };
  }

  /** The events of a session, via `nodwyn log show --json`. */
  events(session: string): LogEvent[] {
    const out = this.run(['log', 'show', session, '--json']);
    if (out.code !== 0) throw new Error(out.stderr);
    return out.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEvent);
  }

  /** Sessions, newest first. */
  sessions(): { id: string; events: number }[] {
    return JSON.parse(this.run(['log', 'list', '--json']).stdout) as { id: string; events: number }[];
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** nodwyn running in a terminal (`CliSandbox.inTerminal`). */
export interface TerminalRun {
  /** What the terminal showed so far, stdout and stderr together, with the terminal's CR LF line ends. */
  output(): string;
  /** Types `text` into the terminal (`\r` is Enter). */
  type(text: string): void;
  /** nodwyn's exit code, once it ended. */
  readonly exited: Promise<number | null>;
  /** Resolves once the terminal shows `text`. */
  waitFor(text: string): Promise<void>;
}

/** A run's stderr without the `session: ID` line every `nodwyn run` ends it with: its notices and envelopes. */
export function notices(stderr: string): string {
  return stderr.replace(/session: s-[0-9a-z]+-[0-9a-f]+\n$/, '');
}

/** The log events of `--json` output (one JSON object per line; the streamed deltas between them have no `seq`). */
export function jsonLines(stdout: string): LogEvent[] {
  const lines = stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Partial<LogEvent>);
  return lines.filter((line): line is LogEvent => typeof line.seq === 'number');
}
