import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { textOf } from './binary.js';
import { queryError, isQuerySyntaxError, termsIn, TOKENIZER, type FtsQuery } from './fts-query.js';
import { openIndex, type IndexSchema } from './index-db.js';
import type { Guarded } from './text-guard.js';

/** Bumped whenever the layout or the tokenizer changes: an index of another version is rebuilt. */
const SCHEMA: IndexSchema = {
  version: 1,
  tables: ['files', 'docs', 'meta'],
  ddl: `
    CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, mtime REAL NOT NULL, size INTEGER NOT NULL, hash TEXT NOT NULL, state TEXT NOT NULL);
    CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = '${TOKENIZER}');
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
};

/** What became of a file: its text is indexed, or why not. */
export type FileState = 'text' | 'binary' | 'large' | 'withheld' | 'unreadable';

interface FileRow {
  readonly id: number;
  readonly mtime: number;
  readonly size: number;
  readonly hash: string;
}

/** One line a search found. */
export interface RepoHit {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** What a search found, and whether there was more. */
export interface RepoSearch {
  readonly hits: readonly RepoHit[];
  readonly truncated: boolean;
}

/** How a file is turned into indexable text: the size limit, and the text layers. */
export interface IndexPolicy {
  readonly maxFileBytes: number;
  readonly guard: (text: string) => Guarded;
}

/** What one pass over a set of files did. */
export interface PassCounts {
  checked: number;
  reread: number;
  removed: number;
}

/**
 * The repository index of one workspace: every text file's words (FTS5, one document per file, holding
 * the text as the text layers left it) and, per file, the stat and hash it was indexed at. A file is
 * re-read only when its size or mtime changed, and re-indexed only when its hash did. Line numbers come
 * from the stored text at search time, so the index answers `path:line:text` without touching the disk.
 */
export class RepoIndex {
  readonly #db: Database.Database;
  readonly #statements;
  /** Why the file was made anew when it was opened (see `openIndex`), or undefined. */
  readonly rebuilt: string | undefined;

  private constructor(
    readonly file: string,
    readonly root: string,
    opened: { db: Database.Database; rebuilt?: string },
  ) {
    this.#db = opened.db;
    this.rebuilt = opened.rebuilt;
    const db = this.#db;
    this.#statements = {
      all: db.prepare('SELECT id, path, mtime, size, hash FROM files'),
      byPath: db.prepare('SELECT id, mtime, size, hash FROM files WHERE path = ?'),
      // An upsert: another process indexing the same workspace may have added the path since it was read.
      insertFile: db.prepare(
        'INSERT INTO files (path, mtime, size, hash, state) VALUES (?, ?, ?, ?, ?) ON CONFLICT (path) DO UPDATE SET mtime = excluded.mtime, size = excluded.size, hash = excluded.hash, state = excluded.state RETURNING id',
      ),
      updateFile: db.prepare('UPDATE files SET mtime = ?, size = ?, hash = ?, state = ? WHERE id = ?'),
      touchFile: db.prepare('UPDATE files SET mtime = ?, size = ? WHERE id = ?'),
      deleteFile: db.prepare('DELETE FROM files WHERE id = ?'),
      insertDoc: db.prepare('INSERT INTO docs (rowid, body) VALUES (?, ?)'),
      deleteDoc: db.prepare('DELETE FROM docs WHERE rowid = ?'),
      body: db.prepare('SELECT body FROM docs WHERE rowid = ?').pluck(),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      count: db.prepare("SELECT count(*) FROM files WHERE state = 'text'").pluck(),
      // `rank` rather than `bm25(docs)`: FTS5 sorts by its own rank column without a second pass over the matches.
      ranked: db.prepare('SELECT f.id AS id, f.path AS path FROM docs JOIN files f ON f.id = docs.rowid WHERE docs MATCH ? ORDER BY rank'),
      rankedIn: db.prepare('SELECT f.id AS id, f.path AS path FROM docs JOIN files f ON f.id = docs.rowid WHERE docs MATCH ? AND (f.path = ? OR substr(f.path, 1, ?) = ?) ORDER BY rank'),
    };
  }

  /** Opens (or makes anew, when missing, corrupt or of another version) the index in `file` for `root`. */
  static open(file: string, root: string): RepoIndex {
    return new RepoIndex(file, root, openIndex(file, SCHEMA));
  }

  /** True once a full pass over the workspace finished: until then a search sees only part of it. */
  get complete(): boolean {
    return this.#statements.getMeta.get('complete') === '1';
  }

  /** How many files hold indexed text. */
  get files(): number {
    return this.#statements.count.get() as number;
  }

  /** Every indexed path with the stat it was indexed at, for a full pass to compare against. */
  known(): Map<string, FileRow> {
    const rows = new Map<string, FileRow>();
    for (const row of this.#statements.all.iterate() as Iterable<FileRow & { path: string }>) rows.set(row.path, row);
    return rows;
  }

  /** Brings the files at `paths` (relative, `/`) up to date, in one transaction; missing ones are dropped. */
  update(paths: Iterable<string>, policy: IndexPolicy, known?: Map<string, FileRow>, counts?: PassCounts): void {
    this.#db.transaction(() => {
      for (const path of paths) this.#updateOne(path, policy, known?.get(path) ?? (this.#statements.byPath.get(path) as FileRow | undefined), counts);
    })();
  }

  /** Drops the files a full pass did not see (deleted, or now ignored). */
  remove(ids: Iterable<number>, counts?: PassCounts): void {
    this.#db.transaction(() => {
      for (const id of ids) this.#drop(id, counts);
    })();
  }

  /** Marks the index complete: a full pass finished. */
  markComplete(): void {
    this.#statements.setMeta.run('complete', '1');
  }

  #updateOne(path: string, policy: IndexPolicy, row: FileRow | undefined, counts?: PassCounts): void {
    if (counts) counts.checked++;
    let stats: Stats | undefined;
    try {
      stats = statSync(join(this.root, path), { throwIfNoEntry: false });
    } catch {
      stats = undefined;
    }
    if (!stats?.isFile()) {
      if (row) this.#drop(row.id, counts);
      return;
    }
    if (row && row.mtime === stats.mtimeMs && row.size === stats.size) return;
    if (counts) counts.reread++;
    if (stats.size > policy.maxFileBytes) return this.#store(path, row, stats, `size:${stats.size}`, 'large', undefined);
    let content: Buffer;
    try {
      content = readFileSync(join(this.root, path));
    } catch {
      return this.#store(path, row, stats, 'unreadable', 'unreadable', undefined);
    }
    const hash = createHash('sha256').update(content).digest('base64');
    if (row && row.hash === hash) {
      this.#statements.touchFile.run(stats.mtimeMs, stats.size, row.id);
      return;
    }
    const text = textOf(content);
    if (text === undefined) return this.#store(path, row, stats, hash, 'binary', undefined);
    const guarded = policy.guard(text);
    if (guarded.kind === 'withheld') return this.#store(path, row, stats, hash, 'withheld', undefined);
    this.#store(path, row, stats, hash, 'text', guarded.text);
  }

  #store(path: string, row: FileRow | undefined, stats: Stats, hash: string, state: FileState, body: string | undefined): void {
    let id: number;
    if (row) {
      id = row.id;
      this.#statements.updateFile.run(stats.mtimeMs, stats.size, hash, state, id);
      this.#statements.deleteDoc.run(id);
    } else {
      id = (this.#statements.insertFile.get(path, stats.mtimeMs, stats.size, hash, state) as { id: number }).id;
      this.#statements.deleteDoc.run(id);
    }
    if (body !== undefined) this.#statements.insertDoc.run(id, body);
  }

  #drop(id: number, counts?: PassCounts): void {
    this.#statements.deleteDoc.run(id);
    this.#statements.deleteFile.run(id);
    if (counts) counts.removed++;
  }

  /**
   * The lines that hold the query's words, files ranked by BM25 (rarer words and shorter files first) and
   * lines in file order, at most `max`. `prefix` keeps to one file or folder (relative, `/`, no trailing slash).
   */
  search(query: FtsQuery, options: { readonly prefix?: string; readonly max: number; readonly maxLineChars: number }): RepoSearch {
    const { prefix } = options;
    const files = prefix === undefined ? this.#statements.ranked.iterate(query.match) : this.#statements.rankedIn.iterate(query.match, prefix, prefix.length + 1, `${prefix}/`);
    const hits: RepoHit[] = [];
    try {
      for (const file of files as Iterable<{ id: number; path: string }>) {
        const lines = (this.#statements.body.get(file.id) as string).split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (termsIn(lines[i]!, query.terms) === 0) continue;
          if (hits.length === options.max) return { hits, truncated: true };
          hits.push({ path: file.path, line: i + 1, text: cut(lines[i]!.replace(/\r$/, ''), options.maxLineChars) });
        }
      }
    } catch (error) {
      if (isQuerySyntaxError(error)) queryError(query);
      throw error;
    }
    return { hits, truncated: false };
  }

  close(): void {
    this.#db.close();
  }
}

function cut(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}
