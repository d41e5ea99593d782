/**
 * Longest run of non-whitespace held back: longer than every secret L1 knows, JWTs and base64-wrapped
 * credentials (which run to kilobytes) up to this size included. A longer run is let out through `redact`
 * in pieces of this size, its start kept as context, so nothing is held unboundedly and the rest of a long
 * secret joins the placeholder its start got (if `redact` hides that start alone: L1 does for `{50,}`-style
 * formats, not for a JWT cut before its signature or base64 cut off its 4-character grid).
 */
const MAX_RUN = 4096;
/**
 * Released text of the current line redacted again with each piece, so a secret named by what precedes
 * it (`password = `, `Bearer `, `"api_key": "`) is recognised. L1 looks back at most about 170
 * characters from a value (a 48-character key around its keyword, quotes, blanks and separator).
 */
const CONTEXT = 256;
/** The context is cut back to CONTEXT once it grows past this. */
const CONTEXT_TRIM = 384;
/** How much of a run cut at MAX_RUN stays in the context, so a secret longer than a piece is seen whole. */
const MAX_RUN_CONTEXT = 16 * 1024;
/** A key block is held whole (up to this size): the text layers recognise it only with its end. */
const MAX_BLOCK = 16 * 1024;

/** How every text layer's placeholder starts. */
const PLACEHOLDER = '[REDACTED ';

/**
 * Key blocks: the armour that opens one, and what finishes it, up to the end of that marker's token
 * (`-----END RSA PRIVATE KEY-----\n`, or `…-----\\n",` in a JSON string; a PuTTY key's `Private-MAC:` line).
 */
const BLOCKS: readonly { readonly open: string; readonly close: RegExp }[] = [
  { open: '-----BEGIN ', close: /-----END [A-Z0-9 ]{0,64}-----[^\t-\r ]*[\t-\r ]/g },
  { open: 'PuTTY-User-Key-File-', close: /Private-(?:MAC|Hash): [^\t-\r ]*[\t-\r ]/g },
];

/**
 * Streamed text on its way to a person, through the text layers (`redact`) first, adding latency only for
 * what it holds back. The hold rule: an unfinished key block (a `-----BEGIN ` without an `-----END …-----`
 * token after it, a `PuTTY-User-Key-File-` without a finished `Private-MAC:` line) is held from the start
 * of its token, up to MAX_BLOCK; otherwise the trailing run of non-whitespace characters is held, unless it
 * reached MAX_RUN. Whitespace (ASCII space, tab, CR, LF, VT, FF) is the only separator, because L1's
 * quoted values may hold any other printable character. Each piece let out is redacted together with the
 * released text of its line before it (all of it up to CONTEXT_TRIM, then the last CONTEXT characters, or
 * CONTEXT before a run still open), and only what follows that context's cached redaction is shown; when
 * the piece changes that redaction (a match spanning the boundary), what is shown restarts where the two
 * part (at the placeholder's start), so it repeats some of the line, and never shows what `redact` hides.
 *
 * The guarantee, for any `redact`: every string `push` and `flush` return is a suffix of `redact(c + p)`,
 * `p` the piece let out and `c` its context. So, however the deltas split the text, no character of a
 * secret is shown when `redact` hides it in the text from CONTEXT characters before its token (on its
 * line) to the end of that token, and the secret holds no whitespace and its token is shorter than
 * MAX_RUN, or it lies in a key block shorter than MAX_BLOCK. Then, and when every other match is decided
 * the same way, the concatenated output is exactly `redact` of the whole text. With L1 that holds for every
 * class in every context and hiding place of its test corpus, but Kubernetes `data:` values whose
 * `kind: Secret` comes on a later line; values with spaces (a `;`-list `Password=two words;`, a
 * `stringData` value, a phrase L2 remembers) may show the words released before the rest arrived.
 * `flush` lets the rest out when the stream ends, however it ends.
 */
export class StreamRedactor {
  #held = '';
  /** Released raw text of the current line, and its redaction. */
  #context = '';
  #contextShown = '';

  constructor(private readonly redact: (text: string) => string) {}

  /** Takes one delta; returns what can be shown now (possibly nothing). */
  push(delta: string): string {
    this.#held += delta;
    const cut = releasePoint(this.#held);
    if (cut === 0) return '';
    const shown = this.#release(this.#held.slice(0, cut));
    this.#held = this.#held.slice(cut);
    return shown;
  }

  /** Everything still held, redacted. */
  flush(): string {
    const rest = this.#held;
    this.#held = '';
    try {
      return rest === '' ? '' : this.#release(rest);
    } finally {
      this.#context = '';
      this.#contextShown = '';
    }
  }

  #release(piece: string): string {
    const whole = this.#context + piece;
    const shown = this.redact(whole);
    const known = this.#contextShown;
    const out = shown.startsWith(known) ? shown.slice(known.length) : shown.slice(restart(shown, known));
    const newline = piece.lastIndexOf('\n');
    const from = contextStart(whole, newline < 0 ? 0 : this.#context.length + newline + 1);
    const context = whole.slice(from);
    this.#contextShown = from === 0 ? shown : context === '' ? '' : this.redact(context);
    this.#context = context;
    return out;
  }
}

/** True for the characters no secret L1 knows holds (outside a key block): ASCII whitespace. */
function isSeparator(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** Start of the run of non-whitespace that ends `text`, looking back no further than `floor`. */
function runStart(text: string, floor: number): number {
  let i = text.length;
  while (i > floor && !isSeparator(text.charCodeAt(i - 1))) i--;
  return i;
}

/** How much of the held text can be let out now. */
function releasePoint(held: string): number {
  const block = openBlock(held);
  if (block >= 0) return runStart(held.slice(0, block), 0);
  const run = runStart(held, Math.max(0, held.length - MAX_RUN));
  return held.length - run >= MAX_RUN ? held.length : run;
}

/** Where the first unfinished key block (of at most MAX_BLOCK) in `held` starts, or -1. */
function openBlock(held: string): number {
  let open = -1;
  for (const { open: armour, close } of BLOCKS) {
    for (let at = held.indexOf(armour); at >= 0 && (open < 0 || at < open); at = held.indexOf(armour, at + 1)) {
      close.lastIndex = at + armour.length;
      if (held.length - at < MAX_BLOCK && !close.test(held)) open = at;
    }
  }
  return open;
}

/**
 * Where the context kept after `text` starts: its line's start, or, once that is more than CONTEXT_TRIM
 * back, CONTEXT characters before the end, or before a run still open at the end (one cut at MAX_RUN,
 * kept whole up to MAX_RUN_CONTEXT, so its secret is seen from its start and with what names it).
 */
function contextStart(text: string, line: number): number {
  if (text.length - line <= CONTEXT_TRIM) return line;
  return Math.max(line, runStart(text, Math.max(line, text.length - MAX_RUN_CONTEXT)) - CONTEXT);
}

/**
 * Where what is shown restarts when a piece changed how its context redacts: where the two redactions
 * part, or the start of the placeholder (`[REDACTED <class>]`, the text layers' one shape) they part in,
 * when a class changed, so a person never sees half a placeholder.
 */
function restart(shown: string, known: string): number {
  const n = Math.min(shown.length, known.length);
  let at = 0;
  while (at < n && shown.charCodeAt(at) === known.charCodeAt(at)) at++;
  const open = shown.lastIndexOf(PLACEHOLDER, at);
  return open >= 0 && shown.indexOf(']', open) >= at ? open : at;
}
