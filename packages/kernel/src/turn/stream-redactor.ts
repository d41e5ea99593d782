/** Longest line held back waiting for its end; past it, text is let out at a space. */
const MAX_HOLD = 4096;
/** What stays held when a long line is let out early: longer than any secret the text layers know. */
const TAIL = 2048;
/** A PEM block is held whole (up to this size), since the text layers recognise it only with its end. */
const MAX_BLOCK_HOLD = 16 * 1024;

/**
 * Streamed text on its way to a person, passed through the text layers first. A secret split across
 * deltas (`sk-pr` + `oj-…`) must be redacted whole, so text is held back until a line ends; a line longer
 * than MAX_HOLD is let out at its last space before a TAIL that stays held, and a PEM block is held until
 * its END line. `flush` lets the rest out when the stream ends, however it ends.
 */
export class StreamRedactor {
  #pending = '';

  constructor(private readonly redact: (text: string) => string) {}

  /** Takes one delta; returns what can be shown now (possibly nothing). */
  push(delta: string): string {
    this.#pending += delta;
    const cut = this.#cut();
    if (cut === 0) return '';
    const ready = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    return this.redact(ready);
  }

  /** Everything still held, redacted. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = '';
    return rest === '' ? '' : this.redact(rest);
  }

  #cut(): number {
    const text = this.#pending;
    const begin = text.lastIndexOf('-----BEGIN ');
    if (begin >= 0 && text.indexOf('-----END ', begin) < 0 && text.length - begin < MAX_BLOCK_HOLD) return lineStart(text, begin);
    const newline = text.lastIndexOf('\n');
    if (newline >= 0) return newline + 1;
    if (text.length <= MAX_HOLD) return 0;
    const space = text.lastIndexOf(' ', text.length - TAIL);
    return space > 0 ? space + 1 : text.length - TAIL;
  }
}

// A held block starts at the start of its line, so the text before it on that line is held with it.
function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at) + 1;
}
