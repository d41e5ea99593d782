/**
 * The run's logs (`nodwyn.log`, console output) up to the output cap, in UTF-8 bytes. What passes the cap
 * is cut at a character boundary and the buffer says it overflowed; the runner then stops the run.
 */
export class LogBuffer {
  #parts: string[] = [];
  #bytes = 0;
  #overflowed = false;

  constructor(private readonly cap: number) {}

  /** Bytes kept so far. */
  get bytes(): number {
    return this.#bytes;
  }

  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** Appends `text`; answers false (and keeps only what fits) when it passes the cap. */
  append(text: string): boolean {
    if (this.#overflowed) return false;
    const size = Buffer.byteLength(text, 'utf8');
    if (this.#bytes + size <= this.cap) {
      this.#parts.push(text);
      this.#bytes += size;
      return true;
    }
    const fits = Buffer.from(text, 'utf8').subarray(0, this.cap - this.#bytes).toString('utf8').replace(/\uFFFD$/, '');
    this.#parts.push(fits);
    this.#bytes += Buffer.byteLength(fits, 'utf8');
    this.#overflowed = true;
    return false;
  }

  text(): string {
    return this.#parts.join('');
  }
}
