/**
 * A run's logs, kept up to a byte cap: what comes after the cap is dropped and `truncated` says so. The
 * harness stops logging at the cap itself; this cap also holds for what the code wrote around it.
 */
export class LogBuffer {
  #text = '';
  #bytes = 0;
  #truncated = false;

  constructor(private readonly cap: number) {}

  get text(): string {
    return this.#text;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  get bytes(): number {
    return this.#bytes;
  }

  add(text: string): void {
    if (this.#truncated) return;
    const room = this.cap - this.#bytes;
    const size = Buffer.byteLength(text, 'utf8');
    if (size <= room) {
      this.#text += text;
      this.#bytes += size;
      return;
    }
    const cut = cutToBytes(text, room);
    this.#text += cut;
    this.#bytes += Buffer.byteLength(cut, 'utf8');
    this.#truncated = true;
  }

  /** Cuts the kept text to `max` bytes, so logs and result together stay within the cap. */
  shrinkTo(max: number): void {
    if (this.#bytes <= max) return;
    this.#text = cutToBytes(this.#text, Math.max(0, max));
    this.#bytes = Buffer.byteLength(this.#text, 'utf8');
    this.#truncated = true;
  }

  /** Marks the logs cut (the harness dropped some before they reached the host). */
  markTruncated(): void {
    this.#truncated = true;
  }
}

/** The longest prefix of `text` that fits in `max` UTF-8 bytes, never splitting a character. */
export function cutToBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = Math.max(0, max);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
