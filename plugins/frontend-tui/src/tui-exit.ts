import { EXIT } from './errors.js';
import { describeError } from './session/describe-error.js';

/**
 * How one run of the TUI ends: the first of a quit, the app's abort (130), a broken pipe (0, quietly:
 * nobody is left to read anything) or a failure (1, one line on stderr, never a stack trace) decides the
 * exit code.
 */
export class TuiExit {
  readonly code: Promise<number>;
  #brokenPipe = false;
  #settle: (code: number) => void = () => undefined;
  readonly #onAbort = (): void => this.end(EXIT.aborted);
  readonly #onStdoutError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') return this.fail(error);
    this.#brokenPipe = true;
    this.end(EXIT.ok);
  };

  constructor(
    private readonly signal: AbortSignal,
    private readonly stdout: NodeJS.WriteStream,
    private readonly stderr: NodeJS.WriteStream,
  ) {
    this.code = new Promise((resolve) => (this.#settle = resolve));
    signal.addEventListener('abort', this.#onAbort, { once: true });
    stdout.on('error', this.#onStdoutError);
  }

  /** True when the terminal went away: nothing more may be written to it. */
  get brokenPipe(): boolean {
    return this.#brokenPipe;
  }

  end(code: number): void {
    this.#settle(code);
  }

  fail(error: unknown): void {
    this.stderr.write(`nodwyn: the terminal UI stopped: ${describeError(error)}\n`);
    this.end(EXIT.failed);
  }

  dispose(): void {
    this.signal.removeEventListener('abort', this.#onAbort);
    this.stdout.off('error', this.#onStdoutError);
  }
}
