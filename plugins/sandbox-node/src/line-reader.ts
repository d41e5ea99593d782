/**
 * Splits a byte stream into newline-ended lines without ever holding more than `maxLine` bytes of one
 * line: the child is untrusted, and a line that never ends must not grow the host's memory.
 */
export class LineReader {
  #parts: Buffer[] = [];
  #size = 0;
  #stopped = false;

  /**
   * @param onLine called with each complete line, as UTF-8 text without its newline
   * @param onOverflow called once when a line passes `maxLine` bytes; nothing is read after it
   */
  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: string) => void,
    private readonly onOverflow: () => void,
  ) {}

  /** Feeds one chunk as it came off the stream. */
  push(chunk: Buffer): void {
    let rest = chunk;
    while (!this.#stopped) {
      const end = rest.indexOf(0x0a);
      if (end < 0) {
        this.#keep(rest);
        return;
      }
      this.#keep(rest.subarray(0, end));
      if (this.#stopped) return;
      const line = Buffer.concat(this.#parts, this.#size).toString('utf8');
      this.#parts = [];
      this.#size = 0;
      rest = rest.subarray(end + 1);
      this.onLine(line);
    }
  }

  /** Stops reading; later chunks are dropped. */
  stop(): void {
    this.#stopped = true;
    this.#parts = [];
    this.#size = 0;
  }

  #keep(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#size + part.length > this.maxLine) {
      this.stop();
      this.onOverflow();
      return;
    }
    this.#parts.push(part);
    this.#size += part.length;
  }
}
