import { appendFileSync, closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { taintError } from './errors.js';
import { newWindowKey, WindowHasher } from './window-hash.js';

/** One remembered value as stored: its keyed identity, tags and window fingerprints, never the value. */
export interface StoredValue {
  readonly id: string;
  readonly pinned: boolean;
  readonly tags: readonly string[];
  /** Every window of every spelling, packed (`packWindows`): bucket and fingerprint, never the window. */
  readonly windows: string;
}

const KEY_FILE = 'taint.key';
const MEMORY_FILE = 'taint-memory.jsonl';

/**
 * L2's memory across processes, in the data directory: `taint.key` (0600, outside the database like
 * `log.key`) keys the fingerprints in `taint-memory.jsonl`, one JSON line per remembered value. A memory
 * written under another key (the key file was replaced) cannot be matched against, so it is started over.
 */
export class MemoryFile {
  readonly hasher: WindowHasher;
  readonly #path: string;

  private constructor(dir: string, key: Buffer, width: number) {
    this.hasher = new WindowHasher(key, width);
    this.#path = join(dir, MEMORY_FILE);
  }

  /** Opens the memory in `dir` (creating its key on first use) and returns what earlier processes kept. */
  static open(dir: string, width: number, keep: number): { file: MemoryFile; values: StoredValue[] } {
    const file = new MemoryFile(dir, readOrCreateKey(join(dir, KEY_FILE)), width);
    return { file, values: file.#load(keep) };
  }

  /** Adds one value's record; a later record of the same id adds its tags. */
  append(value: StoredValue): void {
    try {
      appendFileSync(this.#path, `${JSON.stringify(value)}\n`, { mode: 0o600 });
    } catch (error) {
      // Remembering must not fail quietly: the caller (an ingress stage) then fails closed.
      throw taintError('TAINT_MEMORY_FAILED', { operation: 'remember', remediation: 'L2 could not write its memory (taint-memory.jsonl) in the data directory. Check that it is writable by you.' }, error);
    }
  }

  #header(): string {
    return JSON.stringify({ memory: 2, key: this.hasher.identity('nodwyn taint memory key check') });
  }

  #load(keep: number): StoredValue[] {
    if (!existsSync(this.#path)) return this.#rewrite([]);
    const [header, ...lines] = readFileSync(this.#path, 'utf8').split('\n').filter((l) => l.length > 0);
    if (header !== this.#header()) return this.#rewrite([]);
    const byId = new Map<string, StoredValue>();
    for (const line of lines) {
      const value = parseLine(line);
      // A line a crash (or two processes writing at once) tore is dropped; the rewrite below removes it.
      if (!value) continue;
      const known = byId.get(value.id);
      byId.delete(value.id);
      byId.set(value.id, known ? { ...known, pinned: known.pinned || value.pinned, tags: [...new Set([...known.tags, ...value.tags])] } : value);
    }
    const all = [...byId.values()];
    const flagged = all.filter((v) => !v.pinned);
    const kept = [...all.filter((v) => v.pinned), ...flagged.slice(Math.max(0, flagged.length - keep))];
    // Rewritten when it holds repeats or forgotten values, so the file stays about the size of the memory.
    return kept.length === lines.length ? kept : this.#rewrite(kept);
  }

  #rewrite(values: StoredValue[]): StoredValue[] {
    // Through a temporary file and a rename, so a crash mid-write never leaves half a memory.
    const temp = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temp, [this.#header(), ...values.map((v) => JSON.stringify(v))].join('\n') + '\n', { mode: 0o600 });
    renameSync(temp, this.#path);
    return values;
  }
}

function parseLine(line: string): StoredValue | undefined {
  try {
    const value = JSON.parse(line) as Partial<StoredValue>;
    const ok = typeof value.id === 'string' && typeof value.pinned === 'boolean' && Array.isArray(value.tags) && typeof value.windows === 'string';
    return ok ? (value as StoredValue) : undefined;
  } catch {
    return undefined;
  }
}

function readOrCreateKey(path: string): Buffer {
  if (existsSync(path)) {
    const key = readFileSync(path);
    if (key.length === 32) return key;
  }
  const key = newWindowKey();
  const fd = openSync(path, 'w', 0o600);
  try {
    writeSync(fd, key);
  } finally {
    closeSync(fd);
  }
  return key;
}
