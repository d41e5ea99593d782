import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { EnvelopeError } from '@nodwyn/plugin-api';
import type { Envelope } from '@nodwyn/protocol';
import { EventLog, type AppendDraft } from '../../src/log/index.js';

/** A temp folder with a log file and key path in it; `cleanup` removes it. */
export interface TempLog {
  readonly dir: string;
  readonly file: string;
  readonly keyPath: string;
  open(): EventLog;
  cleanup(): void;
}

/** Makes a temp folder for one test's log. */
export function tempLog(prefix = 'nodwyn-log-'): TempLog {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, 'log.db');
  const keyPath = path.join(dir, 'log.key');
  return {
    dir,
    file,
    keyPath,
    open: () => EventLog.open({ path: file, keyPath }),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A draft with a numbered payload. */
export function draft(n: number, extra: Record<string, unknown> = {}): AppendDraft {
  return { type: 'message.user', actor: 'user', payload: { text: `message ${n}`, n, ...extra } };
}

/**
 * A raw better-sqlite3 handle on a log file with the append-only triggers dropped: what someone with
 * write access to the file could do. The log restores the triggers the next time it opens the file.
 */
export function rawTamperHandle(file: string): Database.Database {
  const db = new Database(file);
  for (const name of ['events_no_update', 'events_no_delete', 'events_no_replace', 'checkpoints_no_update', 'checkpoints_no_delete', 'checkpoints_no_replace', 'session_index_no_update', 'session_index_no_delete']) {
    db.exec(`DROP TRIGGER IF EXISTS ${name}`);
  }
  return db;
}

/** The envelope `fn` throws; fails the test when it throws something else or nothing. */
export function envelopeOf(fn: () => unknown): Envelope {
  try {
    fn();
  } catch (error) {
    if (error instanceof EnvelopeError) return error.envelope;
    throw error;
  }
  throw new Error('expected an EnvelopeError, but nothing was thrown');
}
