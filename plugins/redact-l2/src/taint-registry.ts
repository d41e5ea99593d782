import type { TaintTracker } from '@nodwyn/plugin-api';
import { spellings } from './encodings.js';
import type { MemoryFile, StoredValue } from './memory-file.js';
import { packWindows, StoredWindows } from './stored-windows.js';
import { newWindowKey, WindowHasher } from './window-hash.js';

/** How long a fragment of a remembered value must be to taint a text (and the shortest value remembered). */
export const WINDOW = 10;
/** Values L1 flagged that are remembered; the oldest is forgotten first beyond this. Pinned values never are. */
export const MAX_VALUES_PER_SESSION = 2_000;

interface Remembered {
  readonly tags: Set<string>;
  readonly windows: readonly string[];
  readonly pinned: boolean;
}

/** The sorted union of tag sets. */
export function unionTaint(...sets: readonly (readonly string[] | undefined)[]): readonly string[] {
  return [...new Set(sets.flatMap((s) => s ?? []))].sort();
}

/**
 * Remembers values under tags. A text carries a value's tags when it holds any WINDOW-character fragment
 * of one of the value's spellings, so the value is recognised raw, encoded, or split across several
 * requests whose parts are each at least WINDOW long. A secret is a secret whatever session met it, so the
 * memory is shared by every session (the `session` parameters are kept for the interface).
 *
 * Values of this process are indexed by their fragments in memory. With a `MemoryFile`, each value is also
 * written as keyed fingerprints of its fragments, and the fingerprints earlier processes wrote are loaded,
 * so a value L1 redacted yesterday is still caught today in a spelling L1 does not know. Keychain values are
 * pinned: never forgotten, however many values follow. The values themselves are never written or logged.
 */
export class TaintRegistry implements TaintTracker {
  readonly #values = new Map<string, Remembered>();
  readonly #index = new Map<string, Set<Remembered>>();
  readonly #stored: StoredWindows | undefined;
  readonly #hasher: WindowHasher;
  readonly #file: MemoryFile | undefined;
  /** What earlier processes wrote, by identity, so a value they kept is not written again every run. */
  readonly #written = new Map<string, { readonly pinned: boolean; readonly tags: ReadonlySet<string> }>();
  #flagged = 0;

  constructor(memory?: { file: MemoryFile; values: readonly StoredValue[] }) {
    this.#file = memory?.file;
    this.#hasher = memory?.file.hasher ?? new WindowHasher(newWindowKey(), WINDOW);
    this.#stored = memory && memory.values.length > 0 ? new StoredWindows(memory.values) : undefined;
    for (const v of memory?.values ?? []) this.#written.set(v.id, { pinned: v.pinned, tags: new Set(v.tags) });
  }

  remember(_session: string, value: string, tags: readonly string[], options: { readonly pinned?: boolean } = {}): void {
    if (value.length < WINDOW || tags.length === 0) return;
    const pinned = options.pinned === true;
    const known = this.#values.get(value);
    if (known) {
      const added = tags.filter((t) => !known.tags.has(t));
      for (const tag of added) known.tags.add(tag);
      this.#values.delete(value);
      const entry = pinned && !known.pinned ? { ...known, pinned } : known;
      this.#values.set(value, entry);
      if (entry !== known) this.#reindex(known, entry);
      if (added.length > 0 || entry !== known) this.#persist(value, entry);
      return;
    }
    const entry: Remembered = { tags: new Set(tags), windows: windowsOf(value), pinned };
    this.#values.set(value, entry);
    for (const w of entry.windows) {
      let holders = this.#index.get(w);
      if (!holders) this.#index.set(w, (holders = new Set()));
      holders.add(entry);
    }
    this.#persist(value, entry);
    if (!pinned && ++this.#flagged > MAX_VALUES_PER_SESSION) this.#forgetOldest();
  }

  tagsOf(session: string, text: string): readonly string[] {
    return unionTaint(redactedClasses(text), this.matches(session, text));
  }

  matches(_session: string, text: string): readonly string[] {
    const tags = new Set<string>();
    this.#spans(text, (_start, found) => {
      for (const tag of found) tags.add(tag);
    });
    return [...tags].sort();
  }

  /**
   * Replaces every stretch of `text` covered by windows of remembered values with `[REDACTED <tags>]`:
   * the log stage uses it so that a value in some encoding L1 does not know is not kept in the log either.
   */
  redact(_session: string, text: string): string {
    const spans: { start: number; end: number; tags: Set<string> }[] = [];
    this.#spans(text, (start, found) => {
      const last = spans.at(-1);
      const span = last && start <= last.end ? last : { start, end: start, tags: new Set<string>() };
      if (span !== last) spans.push(span);
      span.end = start + WINDOW;
      for (const tag of found) span.tags.add(tag);
    });
    let out = '';
    let at = 0;
    for (const span of spans) {
      out += `${text.slice(at, span.start)}[REDACTED ${[...span.tags].sort().join(',')}]`;
      at = span.end;
    }
    return out + text.slice(at);
  }

  // Every window of `text` that a remembered value holds, in order, with the tags it carries.
  #spans(text: string, found: (start: number, tags: Iterable<string>) => void): void {
    const stored = this.#stored;
    if (text.length < WINDOW || (this.#index.size === 0 && !stored)) return;
    const hits = new Map<number, Set<string>>();
    if (this.#index.size > 0) {
      for (let i = 0; i + WINDOW <= text.length; i++) {
        const holders = this.#index.get(text.slice(i, i + WINDOW));
        if (holders) for (const entry of holders) for (const tag of entry.tags) add(hits, i, tag);
      }
    }
    if (stored) {
      this.#hasher.scan(text, stored, (start, bucket) => {
        for (const tag of stored.tagsAt(bucket, this.#hasher.fingerprint(text.slice(start, start + WINDOW)))) add(hits, start, tag);
      });
    }
    for (const start of [...hits.keys()].sort((a, b) => a - b)) found(start, hits.get(start)!);
  }

  #persist(value: string, entry: Remembered): void {
    if (!this.#file) return;
    const id = this.#hasher.identity(value);
    const written = this.#written.get(id);
    if (written && (written.pinned || !entry.pinned) && [...entry.tags].every((t) => written.tags.has(t))) return;
    this.#written.set(id, { pinned: entry.pinned, tags: new Set(entry.tags) });
    const windows = packWindows(entry.windows.map((w) => [this.#hasher.bucket(w), this.#hasher.fingerprint(w)] as const));
    this.#file.append({ id, pinned: entry.pinned, tags: [...entry.tags].sort(), windows });
  }

  #reindex(from: Remembered, to: Remembered): void {
    for (const w of from.windows) {
      const holders = this.#index.get(w);
      holders?.delete(from);
      holders?.add(to);
    }
    if (!from.pinned && to.pinned) this.#flagged--;
  }

  #forgetOldest(): void {
    for (const [value, entry] of this.#values) {
      if (entry.pinned) continue;
      this.#values.delete(value);
      this.#flagged--;
      for (const w of entry.windows) {
        const holders = this.#index.get(w);
        holders?.delete(entry);
        if (holders?.size === 0) this.#index.delete(w);
      }
      return;
    }
  }
}

function add(hits: Map<number, Set<string>>, start: number, tag: string): void {
  let tags = hits.get(start);
  if (!tags) hits.set(start, (tags = new Set()));
  tags.add(tag);
}

const REDACTED = /\[REDACTED ([a-z0-9][a-z0-9._-]{0,63})\]/g;

// A text that carries L1's placeholder carries content derived from a secret of that class: sending it on
// is moving that secret's context, so it is checked against the class's bindings like the value itself.
function redactedClasses(text: string): string[] {
  return text.includes('[REDACTED ') ? [...text.matchAll(REDACTED)].map((m) => m[1]!) : [];
}

/** Letters and digits a window needs: fewer, and it is mostly layout (`\\n     2\\t`) that any text may hold. */
const MIN_ALNUM = 5;

function windowsOf(value: string): string[] {
  const windows = new Set<string>();
  for (const spelling of spellings(value)) {
    for (let i = 0; i + WINDOW <= spelling.length; i++) {
      const window = spelling.slice(i, i + WINDOW);
      if (alnumCount(window) >= MIN_ALNUM) windows.add(window);
    }
  }
  return [...windows];
}

function alnumCount(window: string): number {
  let n = 0;
  for (let i = 0; i < window.length; i++) {
    const c = window.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n++;
  }
  return n;
}
