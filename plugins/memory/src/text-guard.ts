import type { Redactor, TaintTracker } from '@nodwyn/plugin-api';

/** The session name under which the memory plugin asks L2 about text (L2's memory is shared by every session). */
const TAINT_SESSION = 'memory';

/** What the text layers made of a file's text. */
export type Guarded = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'withheld' };

/**
 * The text layers a repository file passes before any of it is indexed, as a tool result passes them
 * before the model sees it: L1 replaces each detected secret with `[REDACTED <class>]`, and a file that
 * holds a value L2 remembers (a keychain value, or one L1 flagged earlier, in any spelling L2 knows) is
 * withheld whole, since L2 can say that a file holds one but this plugin cannot cut it out.
 */
export class TextGuard {
  constructor(
    private readonly redactor: Redactor,
    private readonly taint: TaintTracker | undefined,
  ) {}

  /** The indexable form of `text`, or `withheld`. */
  guard(text: string): Guarded {
    if (this.taint && this.taint.matches(TAINT_SESSION, text).length > 0) return { kind: 'withheld' };
    return { kind: 'text', text: this.redactor.redact(text).text };
  }
}
