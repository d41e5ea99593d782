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
