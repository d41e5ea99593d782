/** UTF-8 size of `text`, the unit of the output cap. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts `text` to at most `bytes` UTF-8 bytes, never inside a character. */
export function cutToBytes(text: string, bytes: number): string {
  if (byteLength(text) <= bytes) return text;
  return Buffer.from(text, 'utf8').subarray(0, Math.max(0, bytes)).toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * What `nodwyn.log` wrote, one line per call. It keeps at most `cap` bytes while the run goes on, so a
 * flood costs no more memory than the cap; what did not fit is counted, and the final text says so.
 */
export class LogBuffer {
  #text = '';
  #bytes = 0;
  #omitted = 0;

  constructor(private readonly cap: number) {}

  append(line: string): void {
    const entry = this.#bytes === 0 && this.#text === '' ? line : `\n${line}`;
    const size = byteLength(entry);
    if (this.#omitted > 0 || this.#bytes + size > this.cap) {
      this.#omitted += size;
      return;
    }
    this.#text += entry;
    this.#bytes += size;
  }

  /**
   * The logs within `budget` bytes (what the result left of the output cap). When anything was left out,
   * the text ends with a note saying how much, and the note fits in the budget too.
   */
  finish(budget: number): { text: string; truncated: boolean } {
    if (this.#omitted === 0 && this.#bytes <= budget) return { text: this.#text, truncated: false };
    const omitted = this.#omitted + Math.max(0, this.#bytes - budget);
    const note = `\n[logs cut by nodwyn: ${omitted} more bytes left out; log less, or return what matters]`;
    const kept = cutToBytes(this.#text, budget - byteLength(note));
    return { text: byteLength(note) <= budget ? `${kept}${note}` : '', truncated: true };
  }
}
