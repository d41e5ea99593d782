import type { EventLog } from '@nodwyn/kernel';

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

/**
 * A session's current title: that of its latest `session.titled`, found from the head in one query and
 * one read, so a long session costs what a short one does. Undefined when it was never titled (a
 * title its `session.created` carries, as a fork's does, is the caller's fallback).
 */
export function latestTitle(log: EventLog, session: string): string | undefined {
  const seq = log.lastSeqOf(session, ['session.titled']);
  const title = seq === undefined ? undefined : log.read(session, seq, seq)[0]?.payload.title;
  return typeof title === 'string' ? title : undefined;
}
