import { EventEmitter } from 'node:events';
import type { TuiTerminal } from '../src/tui-frontend.js';

/** A terminal's output stream of a given size, keeping what was written. */
export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly frames: string[] = [];

  constructor(
    public columns = 100,
    public rows = 30,
    private readonly colors = true,
  ) {
    super();
  }

  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };

  hasColors(): boolean {
    return this.colors;
  }

  lastFrame(): string | undefined {
    return this.frames.at(-1);
  }

  /** Resizes the terminal, as SIGWINCH would. */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/** A terminal's input stream in raw mode; `write` types or pastes. */
export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  #data: string | null = null;

  write(data: string): void {
    this.#data = data;
    this.emit('readable');
    this.emit('data', data);
  }

  read = (): string | null => {
    const data = this.#data;
    this.#data = null;
    return data;
  };

  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

/** A whole fake terminal for `runTui`. */
export function fakeTerminal(options: { columns?: number; rows?: number; env?: Record<string, string> } = {}): TuiTerminal & { stdin: FakeStdin; stdout: FakeStdout; stderr: FakeStdout } {
  return {
    stdin: new FakeStdin(),
    stdout: new FakeStdout(options.columns, options.rows),
    stderr: new FakeStdout(),
    env: options.env ?? {},
  } as unknown as TuiTerminal & { stdin: FakeStdin; stdout: FakeStdout; stderr: FakeStdout };
}
