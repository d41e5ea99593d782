import type { Redactor, TaintTracker } from '@nodwyn/plugin-api';

/** The session name under which the memory plugin asks L2 about text (L2's memory is shared by every session). */
const TAINT_SESSION = 'memory';

/** What the text layers made of a file's text. */
export type Guarded = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'withheld' };

/** What stands in the index for a line that held a value L2 remembers. */
export const WITHHELD_LINE = '[REDACTED line: it held a remembered secret value]';

/**
 * The text layers a repository file passes before any of it is indexed, as a tool result passes them
 * before the model sees it. L1 replaces each secret it detects with `[REDACTED <class>]`. Then L2 looks
 * for the values it remembers (keychain values, and values L1 flagged before) in any spelling it knows,
 * which L1 has no pattern for: a line holding one is replaced whole (L2 says that a text holds a value,
 * not where its spelling starts and ends), and a file in which one is still found after that (a value
 * split across lines) is withheld whole.
 */
export class TextGuard {
  constructor(
    private readonly redactor: Redactor,
    private readonly taint: TaintTracker | undefined,
  ) {}

  /** The indexable form of `text`, or `withheld`. */
  guard(text: string): Guarded {
    const redacted = this.redactor.redact(text).text;
    if (!this.#holdsSecret(redacted)) return { kind: 'text', text: redacted };
    const lines = redacted.split('\n').map((line) => (this.#holdsSecret(line) ? WITHHELD_LINE : line));
    const cleaned = lines.join('\n');
    return this.#holdsSecret(cleaned) ? { kind: 'withheld' } : { kind: 'text', text: cleaned };
  }

  #holdsSecret(text: string): boolean {
    return this.taint !== undefined && this.taint.matches(TAINT_SESSION, text).length > 0;
  }
}
