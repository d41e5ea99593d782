import { StringDecoder } from 'node:string_decoder';

/**
 * Keeps the first `headBytes` and the last `tailBytes` of a stream of output and counts what falls
 * between, so a command that prints gigabytes costs a bounded amount of memory and still shows how it
 * started and how it ended.
 */
export class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.headBytes - this.headSize;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.head.push(part);
      this.headSize += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    // Drop whole chunks from the front while what remains still covers the tail.
    while (this.tail.length > 1 && this.tailSize - (this.tail[0]?.length ?? 0) >= this.tailBytes) {
      this.tailSize -= this.tail.shift()?.length ?? 0;
    }
  }

  /** The output as text, with a marker where bytes were cut. Multi-byte characters are never split. */
  render(): string {
    const tail = Buffer.concat(this.tail);
    const kept = tail.subarray(Math.max(0, tail.length - this.tailBytes));
    const cut = this.total - this.headSize - kept.length;
    const head = Buffer.concat(this.head);
    if (cut === 0) return Buffer.concat([head, kept]).toString('utf8');
    // The decoder holds back a character split at the end of the head; the tail skips UTF-8
    // continuation bytes at its start.
    const headText = new StringDecoder('utf8').write(head);
    let start = 0;
    while (start < kept.length && ((kept[start] ?? 0) & 0xc0) === 0x80) start++;
    return `${headText}\n[… ${cut} bytes of output cut …]\n${kept.subarray(start).toString('utf8')}`;
  }
}
