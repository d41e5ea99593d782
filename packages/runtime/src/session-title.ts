/** Longest title kept; a title is one line. */
export const TITLE_MAX = 80;

/**
 * A session title from free text (a session's first prompt, or `/title`): its first line, spaces folded,
 * cut to `TITLE_MAX`. Every composition root titles sessions with it (the server on a session's first
 * prompt, `nodwyn run` on a new session's), so a session reads the same in every list.
 */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
