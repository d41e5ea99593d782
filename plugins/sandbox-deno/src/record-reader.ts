import { StringDecoder } from 'node:string_decoder';

/** What the reader hands on: a record of the harness, or a line the code wrote by other means. */
export interface RecordSink {
  log(text: string): void;
  end(json: string): void;
  /** A door call the host serves (readFile, writeFile). */
  call(json: string): void;
  stray(line: string): void;
}

/**
 * Splits the Deno process's stdout into the harness's records (after `\x1e<nonce> `, see the harness)
 * and the plain lines around them. A record may follow text the code wrote without a newline, so the
 * marker is looked for anywhere in a line. A log record cut short by a kill is dropped.
 */
export class RecordReader {
  readonly #decoder = new StringDecoder('utf8');
  readonly #marker: string;
  #pending = '';

  constructor(
    nonce: string,
    private readonly sink: RecordSink,
  ) {
    this.#marker = `\x1e${nonce} `;
  }

  push(chunk: Buffer): void {
    this.#pending += this.#decoder.write(chunk);
    let newline = this.#pending.indexOf('\n');
    while (newline >= 0) {
      this.#line(this.#pending.slice(0, newline));
      this.#pending = this.#pending.slice(newline + 1);
      newline = this.#pending.indexOf('\n');
    }
  }

  close(): void {
    const rest = this.#pending + this.#decoder.end();
    this.#pending = '';
    if (rest !== '') this.#line(rest);
  }

  #line(line: string): void {
    const at = line.indexOf(this.#marker);
    if (at < 0) {
      if (line !== '') this.sink.stray(`${line}\n`);
      return;
    }
    if (at > 0) this.sink.stray(`${line.slice(0, at)}\n`);
    const record = line.slice(at + this.#marker.length);
    if (record.startsWith('end ')) this.sink.end(record.slice(4));
    else if (record.startsWith('log ')) this.#log(record.slice(4));
    else if (record.startsWith('call ')) this.sink.call(record.slice(5));
  }

  #log(json: string): void {
    try {
      const text: unknown = JSON.parse(json);
      if (typeof text === 'string') this.sink.log(text);
    } catch {
      // The harness writes these with JSON.stringify; a record cut by a kill is simply lost.
    }
  }
}
