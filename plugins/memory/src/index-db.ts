import Database from 'better-sqlite3';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { memoryFail } from './errors.js';

/** An index database: its schema (DDL run on a fresh file) and the version stored in `user_version`. */
export interface IndexSchema {
  readonly version: number;
  readonly ddl: string;
  /** The tables a usable file holds; a file missing one is rebuilt. */
  readonly tables: readonly string[];
}

/** What opening an index found. */
export interface OpenedIndex {
  readonly db: Database.Database;
  /** Why the file was made anew (`missing`, `corrupt`, `old schema`), or undefined when it was kept. */
  readonly rebuilt?: string;
}

/**
 * Opens an index file, never trusting one it cannot vouch for: a file that is not SQLite, has another
 * schema version or lacks a table is deleted (with its -wal and -shm) and made anew. Damage deeper in
 * the file surfaces as SQLITE_CORRUPT when a page is read; the indexes catch that (`isCorruption`) and
 * rebuild too. A full integrity check on every open would read the whole file, which for a large
 * repository's index costs more than a search may wait. An index is derived (from the log, or from the workspace's files), so deleting one loses
 * nothing but the time to rebuild it.
 */
export function openIndex(file: string, schema: IndexSchema): OpenedIndex {
  mkdirSync(dirname(file), { recursive: true });
  const problem = checkExisting(file, schema);
  if (problem === undefined) return { db: configure(new Database(file)) };
  removeIndex(file);
  try {
    const db = configure(new Database(file));
    db.exec(schema.ddl);
    db.pragma(`user_version = ${schema.version}`);
    return { db, rebuilt: problem };
  } catch (error) {
    return memoryFail(
      'MEMORY_INDEX_FAILED',
      { operation: 'memory.index', received_value: file, remediation: `nodwyn could not create the index ${file}; check that the data folder is writable and the disk is not full, then run \`nodwyn memory rebuild\`.` },
      error,
    );
  }
}

/** Deletes an index file and its WAL companions. */
export function removeIndex(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

/** True when `error` says the database file itself is damaged (so it must be rebuilt, not reported). */
export function isCorruption(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
}

/**
 * Runs `fn`; when the index turns out damaged, `reset` makes it anew and `fn` runs once more. A damaged
 * index is never trusted: what it held is derived again (from the log, or the workspace's files).
 */
export function rebuiltIfDamaged<T>(fn: () => T, reset: () => void): T {
  try {
    return fn();
  } catch (error) {
    if (!isCorruption(error)) throw error;
    reset();
    return fn();
  }
}

function configure(db: Database.Database): Database.Database {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

// Why an existing file cannot be used, or undefined when it can.
function checkExisting(file: string, schema: IndexSchema): string | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    if (db.pragma('user_version', { simple: true }) !== schema.version) return 'old schema';
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((row) => row.name));
    if (!schema.tables.every((table) => tables.has(table))) return 'old schema';
    return undefined;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CANTOPEN') return 'missing';
    // Not a database, or damaged in a way SQLite reports on opening or reading: rebuilt either way.
    return 'corrupt';
  } finally {
    db?.close();
  }
}
