import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

const EXIT_MARK = '<exited ';

function quote(part: string): string {
  return `'${part.replaceAll("'", "'\\''")}'`;
}

/**
 * A real terminal for end-to-end tests: a tmux pane of a fixed size running one command, on a tmux server
 * of its own (so tests never share one), driven with `send-keys` and read with `capture-pane`.
 */
export class TmuxPane {
  readonly #socket = `nodwyn-e2e-${randomBytes(4).toString('hex')}`;

  constructor(
    command: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv; width?: number; height?: number },
  ) {
    const env = Object.entries(options.env).flatMap(([k, v]) => (v === undefined ? [] : ['-e', `${k}=${v}`]));
    // The command's exit status is printed when it ends (tmux 3.3 has no format for it), and the pane
    // stays, so a test reads how it ended.
    const shell = `${command.map(quote).join(' ')}; echo "${EXIT_MARK}$?>"`;
    this.#tmux(['new-session', '-d', '-s', 'e2e', '-x', String(options.width ?? 100), '-y', String(options.height ?? 30), '-c', options.cwd, ...env, shell]);
    // Keep the pane (and its last screen) when the command exits, so a test can read how it ended.
    this.#tmux(['set-option', '-t', 'e2e', 'remain-on-exit', 'on']);
  }

  /** Types `text` literally (no key names). */
  type(text: string): void {
    this.#tmux(['send-keys', '-t', 'e2e', '-l', text]);
  }

  /** Presses keys by tmux name: `Enter`, `Escape`, `C-c`, `Up`, `Tab`, `y`. */
  press(...keys: string[]): void {
    this.#tmux(['send-keys', '-t', 'e2e', ...keys]);
  }

  /** The visible screen, one line per row, trailing spaces trimmed. */
  screen(): string {
    return this.#tmux(['capture-pane', '-p', '-t', 'e2e']);
  }

  /** The visible screen with its colours and attributes, as escape sequences. */
  styled(): string {
    return this.#tmux(['capture-pane', '-p', '-e', '-t', 'e2e']);
  }

  /** The screen and the scrollback above it. */
  history(): string {
    return this.#tmux(['capture-pane', '-p', '-S', '-', '-t', 'e2e']);
  }

  /** The command's exit status once it has exited, else `undefined`. */
  exitStatus(): number | undefined {
    const match = new RegExp(`${EXIT_MARK}(\\d+)>`).exec(this.history());
    return match ? Number(match[1]) : undefined;
  }

  /** Resizes the pane's window. */
  resize(width: number, height: number): void {
    this.#tmux(['resize-window', '-t', 'e2e', '-x', String(width), '-y', String(height)]);
  }

  /** Waits until the screen (or the scrollback with `history`) shows `what`; fails with the screen after `ms`. */
  async waitFor(what: string | RegExp, options: { ms?: number; history?: boolean } = {}): Promise<string> {
    const deadline = Date.now() + (options.ms ?? 15_000);
    for (;;) {
      const text = options.history ? this.history() : this.screen();
      if (typeof what === 'string' ? text.includes(what) : what.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(what)}; it shows:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends the tmux server and the command in it. */
  kill(): void {
    try {
      this.#tmux(['kill-server']);
    } catch {
      // Already gone.
    }
  }

  #tmux(args: readonly string[]): string {
    return execFileSync('tmux', ['-L', this.#socket, '-f', '/dev/null', ...args], { encoding: 'utf8', timeout: 10_000 });
  }
}
