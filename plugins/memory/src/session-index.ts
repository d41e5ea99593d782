import type Database from 'better-sqlite3';
import type { LogReader } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { isQuerySyntaxError, queryError, TOKENIZER, type FtsQuery } from './fts-query.js';
import { openIndex, rebuiltIfDamaged, removeIndex, type IndexSchema } from './index-db.js';

const SCHEMA: IndexSchema = {
  version: 1,
  tables: ['logged', 'logged_fts', 'progress'],
  ddl: `
    CREATE TABLE logged (id INTEGER PRIMARY KEY, session TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, text TEXT NOT NULL, UNIQUE (session, seq));
    CREATE VIRTUAL TABLE logged_fts USING fts5(text, content = 'logged', content_rowid = 'id', tokenize = '${TOKENIZER}');
    CREATE TABLE progress (session TEXT PRIMARY KEY, seq INTEGER NOT NULL);
  `,
};

/** One event a search found. */
export interface SessionHit {
  readonly session: string;
  readonly seq: number;
  readonly type: string;
  readonly snippet: string;
}

/** Longest text indexed of one event: the first 256 KiB of a longer one are searched. */
const MAX_EVENT_CHARS = 256 * 1024;

/**
 * The words of logged events (FTS5), for `search_session` and `search_history`. It is built from the log
 * alone, which the text layers redacted before anything was written, and brought up to date from the last
 * indexed seq of a session each time that session is searched, so it is in step with every append a
 * search could see. Deleting the file loses nothing: the next search indexes the log again.
 */
export class SessionIndex {
  #db: Database.Database;

  constructor(
    private readonly file: string,
    private readonly log: LogReader,
  ) {
    this.#db = openIndex(file, SCHEMA).db;
  }

  /** Indexes the events of `session` appended since it was last indexed; returns them. */
  catchUp(session: string): readonly LogEvent[] {
    return this.#guarded(() => {
      const last = (this.#db.prepare('SELECT seq FROM progress WHERE session = ?').pluck().get(session) as number | undefined) ?? 0;
      const events = this.log.read(session, last + 1);
      if (events.length === 0) return events;
      const insert = this.#db.prepare('INSERT OR IGNORE INTO logged (session, seq, type, text) VALUES (?, ?, ?, ?) RETURNING id, text');
      const insertFts = this.#db.prepare('INSERT INTO logged_fts (rowid, text) VALUES (?, ?)');
      const progress = this.#db.prepare('INSERT INTO progress (session, seq) VALUES (?, ?) ON CONFLICT (session) DO UPDATE SET seq = excluded.seq');
      this.#db.transaction(() => {
        for (const event of events) {
          const row = insert.get(session, event.seq, event.type, textOf(event)) as { id: number; text: string } | undefined;
          if (row) insertFts.run(row.id, row.text);
        }
        progress.run(session, events.at(-1)!.seq);
      })();
      return events;
    });
  }

  /** The best-ranked events of `sessions` that hold the query's words, at most `max`. */
  search(query: FtsQuery, sessions: readonly string[], max: number): SessionHit[] {
    if (sessions.length === 0) return [];
    return this.#guarded(() => {
      try {
        return this.#db
          .prepare(
            `SELECT l.session AS session, l.seq AS seq, l.type AS type, snippet(logged_fts, 0, '«', '»', '…', 16) AS snippet
             FROM logged_fts JOIN logged l ON l.id = logged_fts.rowid
             WHERE logged_fts MATCH ? AND l.session IN (SELECT value FROM json_each(?))
             ORDER BY bm25(logged_fts) LIMIT ?`,
          )
          .all(query.match, JSON.stringify(sessions), max) as SessionHit[];
      } catch (error) {
        if (isQuerySyntaxError(error)) queryError(query);
        throw error;
      }
    });
  }

  /** Deletes the index and starts from nothing (`nodwyn memory rebuild`). */
  reset(): void {
    this.#db.close();
    removeIndex(this.file);
    this.#db = openIndex(this.file, SCHEMA).db;
  }

  close(): void {
    this.#db.close();
  }

  #guarded<T>(fn: () => T): T {
    return rebuiltIfDamaged(fn, () => this.reset());
  }
}

/** Tools whose results repeat other events; their results are not indexed, so a search does not find its own earlier answers. */
const ECHOES = new Set(['search_session', 'search_history', 'recall']);

/** Payload fields that hold no words a person or model would look for. */
const NOISE = new Set(['call_id', 'origin', 'taint', 'truncated']);

/** The words of an event as it was logged: its type, then its payload's strings and numbers, a tool's name first. */
export function textOf(event: LogEvent): string {
  const { name, args, ...rest } = event.payload as { name?: unknown; args?: unknown } & Record<string, unknown>;
  const parts: string[] = [event.type];
  collect([name, args], parts);
  const echo = event.type.startsWith('tool.') && typeof name === 'string' && ECHOES.has(name);
  if (!echo) for (const [key, value] of Object.entries(rest)) if (!NOISE.has(key)) collect(value, parts);
  const text = parts.join('\n');
  return text.length <= MAX_EVENT_CHARS ? text : text.slice(0, MAX_EVENT_CHARS);
}

function collect(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collect(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collect(item, into);
}
