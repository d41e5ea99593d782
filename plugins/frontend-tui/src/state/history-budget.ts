import type { FinishedItem } from './finished-item.js';

/**
 * How much history a continued session prints at once, in characters shown. Drawing costs ink time per
 * character, so the first frame of a session whose tail is megabytes stays fast; what is left out is in
 * the log (`nodwyn log show`), and the TUI says how many earlier events there are.
 */
export const HISTORY_CHARS = 24_000;

/** Characters a folded tool result or diff shows at most. */
const FOLDED = 1200;

/** About how many characters an item puts on screen (results and long prompts are folded). */
export function shownChars(item: FinishedItem): number {
  switch (item.kind) {
    case 'user':
      return Math.min(item.text.length, FOLDED);
    case 'assistant':
      return item.text.length + (item.thinking.length > 0 ? 80 : 0);
    case 'tool': {
      const { text, diff, envelope } = item.outcome;
      const body = (text?.length ?? 0) + (diff ? diff.newText.length + (diff.oldText?.length ?? 0) : 0) + (envelope?.remediation.length ?? 0);
      return item.title.length + Math.min(body, FOLDED);
    }
    case 'plan':
      return item.entries.reduce((n, e) => n + e.length, 0) + (item.verdict.feedback?.length ?? 0);
    case 'notice':
      return item.text.length;
    default:
      return 80;
  }
}

/** How many of `items` (from the end) fit the budget; always at least the last one. */
export function fittingTail(items: readonly FinishedItem[], budget = HISTORY_CHARS): number {
  let left = budget;
  let count = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    left -= shownChars(items[i]!);
    if (left < 0 && count > 0) break;
    count++;
  }
  return count;
}
