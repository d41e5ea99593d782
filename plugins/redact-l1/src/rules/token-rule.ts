import { isPlaceholder } from '../allow-list.js';
import { Priority, type Rule } from '../candidate.js';
import { endsToken, startsToken, stickyAt } from '../chars.js';

/** A vendor token found by its documented prefix, length and alphabet. */
export interface TokenSpec {
  readonly class: string;
  /** Literals the prefilter looks for, exactly; the pattern runs where one starts. */
  readonly anchors?: readonly string[];
  /** Lowercase literals matched in any case, for formats whose prefix case varies. */
  readonly keywords?: readonly string[];
  /**
   * Sticky, case-sensitive, starting at the anchor. With the `d` flag and a group, only the group is
   * redacted (the secret path of a webhook URL, not its host).
   */
  readonly pattern: RegExp;
  /** A further test of the token (e.g. it must hold a digit), after the allow-list. */
  readonly check?: (token: string) => boolean;
}

/** Builds the rule for a vendor token: the token must stand alone (no letter or digit glued on). */
export function tokenRule(spec: TokenSpec): Rule {
  return {
    ...(spec.anchors ? { anchors: spec.anchors } : {}),
    ...(spec.keywords ? { keywords: spec.keywords } : {}),
    handle(scan, start) {
      const match = stickyAt(spec.pattern, scan.text, start);
      if (!match || !startsToken(scan.text, start) || !endsToken(scan.text, start + match[0].length)) return;
      const [from, to] = match.indices?.[1] ?? [start, start + match[0].length];
      const token = scan.text.slice(from, to);
      if (isPlaceholder(token) || (spec.check && !spec.check(token))) return;
      scan.add({ class: spec.class, start: from, end: to, priority: Priority.vendor });
    },
  };
}

/** Builds one rule per spec. */
export function tokenRules(specs: readonly TokenSpec[]): Rule[] {
  return specs.map(tokenRule);
}
