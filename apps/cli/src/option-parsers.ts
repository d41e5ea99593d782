/**
 * A command-line option with a value it does not take. Thrown from commander's argParsers, which must
 * stay light (main.ts loads almost nothing for `--version`); main turns it into an `OPTION_INVALID`
 * envelope. Not a CommanderError: commander rethrows those silently, and the person saw nothing.
 */
export class InvalidOption extends Error {
  constructor(
    readonly flag: string,
    readonly value: string,
    readonly expected: string,
  ) {
    super(`${flag} takes ${expected}, not "${value}"`);
  }
}

/** An argParser for an option that takes a whole number of at least 1 (`--max-turns`, `--at`). */
export function positiveInt(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isSafeInteger(n) || n < 1) throw new InvalidOption(flag, value, 'a whole number of at least 1');
    return n;
  };
}

/** An argParser for an option that takes a number above 0 (`--max-cost`). */
export function positiveNumber(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidOption(flag, value, 'a number above 0');
    return n;
  };
}

/** An argParser for a TCP port: a whole number from 0 (any free port) to 65535. */
export function port(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isSafeInteger(n) || n < 0 || n > 65535) throw new InvalidOption(flag, value, 'a port from 0 (any free one) to 65535');
    return n;
  };
}
