import { isEnvelopeError } from './envelope.js';

/** Where a command reads and writes. */
export interface CommandIO {
  readonly stdin: NodeJS.ReadableStream;
  write(text: string): void;
  error(text: string): void;
  readonly interactive: boolean;
}

/** A `nodwyn <name>` subcommand contributed by a plugin. */
export interface CliCommand {
  readonly name: string;
  readonly description: string;
  /** Positional arguments, e.g. `['NAME']`; a trailing `...` makes the last one variadic. */
  readonly arguments?: readonly string[];
  /** Options in commander's flag syntax, e.g. `{ flags: '--class <class>', description: '…' }`. */
  readonly options?: readonly { readonly flags: string; readonly description: string }[];
  /** Runs the command; returns the process exit code. */
  run(input: { readonly args: readonly string[]; readonly options: Readonly<Record<string, unknown>>; readonly io: CommandIO }): Promise<number>;
}

/** The exit code of a command that failed with an envelope (the CLI's own commands use it too). */
export const ENVELOPE_EXIT_CODE = 3;

/**
 * Runs a command's work. With `--json` (`options.json`), a failure with an envelope is printed to stderr
 * as one JSON line and the command exits `ENVELOPE_EXIT_CODE`; otherwise it is thrown for the CLI to show.
 */
export async function withJsonFailures(options: Readonly<Record<string, unknown>>, io: CommandIO, work: () => Promise<number> | number): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (options.json !== true || !isEnvelopeError(error)) throw error;
    io.error(`${JSON.stringify(error.envelope)}\n`);
    return ENVELOPE_EXIT_CODE;
  }
}
