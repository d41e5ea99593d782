import type { TaintTracker } from '@nodwyn/plugin-api';
import { spellings } from './encodings.js';

/** How long a fragment of a remembered value must be to taint a text (and the shortest value remembered). */
export const WINDOW = 10;
/** Values remembered per session; the oldest is forgotten first beyond this. */
export const MAX_VALUES_PER_SESSION = 2_000;

interface Remembered {
  readonly tags: Set<string>;
  readonly windows: readonly string[];
}

/** The sorted union of tag sets. */
export function unionTaint(...sets: readonly (readonly string[] | undefined)[]): readonly string[] {
  return [...new Set(sets.flatMap((s) => s ?? []))].sort();
}

/**
 * Remembers values under tags, per session, in memory only. A text carries a value's tags when it holds
 * any WINDOW-character fragment of one of the value's spellings, so the value is recognised raw, encoded,
 * or split across several requests whose parts are each at least WINDOW long. What is kept is the set of
 * fragments, indexed for lookup; nothing is ever written or logged.
 */
export class TaintRegistry implements TaintTracker {
  readonly #sessions = new Map<string, { values: Map<string, Remembered>; index: Map<string, Set<Remembered>> }>();

  remember(session: string, value: string, tags: readonly string[]): void {
    if (value.length < WINDOW || tags.length === 0) return;
    const state = this.#session(session);
    const known = state.values.get(value);
    if (known) {
      for (const tag of tags) known.tags.add(tag);
      state.values.delete(value);
      state.values.set(value, known);
      return;
    }
    const entry: Remembered = { tags: new Set(tags), windows: windowsOf(value) };
    state.values.set(value, entry);
    for (const w of entry.windows) {
      let holders = state.index.get(w);
      if (!holders) state.index.set(w, (holders = new Set()));
      holders.add(entry);
    }
    if (state.values.size > MAX_VALUES_PER_SESSION) this.#forgetOldest(state);
  }

  tagsOf(session: string, text: string): readonly string[] {
    const tags = new Set<string>(redactedClasses(text));
    const state = this.#sessions.get(session);
    if (!state || text.length < WINDOW) return [...tags].sort();
    for (let i = 0; i + WINDOW <= text.length; i++) {
      const holders = state.index.get(text.slice(i, i + WINDOW));
      if (holders) for (const entry of holders) for (const tag of entry.tags) tags.add(tag);
    }
    return [...tags].sort();
  }

  /**
   * Replaces every stretch of `text` covered by windows of remembered values with `[REDACTED <tags>]`:
   * the log stage uses it so that a value the model wrote in some encoding is not kept in the log either.
   */
  redact(session: string, text: string): string {
    const state = this.#sessions.get(session);
    if (!state || text.length < WINDOW) return text;
    const spans: { start: number; end: number; tags: Set<string> }[] = [];
    for (let i = 0; i + WINDOW <= text.length; i++) {
      const holders = state.index.get(text.slice(i, i + WINDOW));
      if (!holders) continue;
      const last = spans.at(-1);
      const span = last && i <= last.end ? last : { start: i, end: i, tags: new Set<string>() };
      if (span !== last) spans.push(span);
      span.end = i + WINDOW;
      for (const entry of holders) for (const tag of entry.tags) span.tags.add(tag);
    }
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += `${text.slice(at, span.start)}[REDACTED ${[...span.tags].sort().join(',')}]`;
      at = span.end;
    }
    return out + text.slice(at);
  }

  #session(session: string) {
    let state = this.#sessions.get(session);
    if (!state) this.#sessions.set(session, (state = { values: new Map(), index: new Map() }));
    return state;
  }

  #forgetOldest(state: { values: Map<string, Remembered>; index: Map<string, Set<Remembered>> }): void {
    const [oldest, entry] = state.values.entries().next().value as [string, Remembered];
    state.values.delete(oldest);
    for (const w of entry.windows) {
      const holders = state.index.get(w);
      holders?.delete(entry);
      if (holders?.size === 0) state.index.delete(w);
    }
  }
}

const REDACTED = /\[REDACTED ([a-z0-9][a-z0-9._-]{0,63})\]/g;

// A text that carries L1's placeholder carries content derived from a secret of that class: sending it on
// is moving that secret's context, so it is checked against the class's bindings like the value itself.
function redactedClasses(text: string): string[] {
  return text.includes('[REDACTED ') ? [...text.matchAll(REDACTED)].map((m) => m[1]!) : [];
}

function windowsOf(value: string): string[] {
  const windows = new Set<string>();
  for (const spelling of spellings(value)) {
    for (let i = 0; i + WINDOW <= spelling.length; i++) windows.add(spelling.slice(i, i + WINDOW));
  }
  return [...windows];
}
