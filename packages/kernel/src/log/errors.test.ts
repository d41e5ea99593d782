import { EnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { toLogError } from './errors.js';

function sqliteError(code: string): Error {
  return Object.assign(new Error(`sqlite says ${code}`), { code });
}

describe('toLogError', () => {
  it.each([
    ['SQLITE_NOTADB', 'PRECONDITION_FAILED', 'LOG_DB_CORRUPT'],
    ['SQLITE_CORRUPT_INDEX', 'PRECONDITION_FAILED', 'LOG_DB_CORRUPT'],
    ['SQLITE_BUSY_SNAPSHOT', 'TIMEOUT', 'LOG_BUSY'],
    ['SQLITE_FULL', 'PRECONDITION_FAILED', 'LOG_OPEN_FAILED'],
    ['SQLITE_IOERR_WRITE', 'PRECONDITION_FAILED', 'LOG_OPEN_FAILED'],
    ['SQLITE_CONSTRAINT_TRIGGER', 'INTERNAL', 'LOG_SQLITE_FAILED'],
  ])('maps %s to %s %s, keeping the cause and the SQLite code', (code, category, logCode) => {
    const cause = sqliteError(code);
    const error = toLogError(cause, 'log.append', '/tmp/x.db');
    expect(error.envelope).toMatchObject({ category, code: logCode, operation: 'log.append' });
    expect(error.envelope.received_value).toContain(code);
    expect(error.cause).toBe(cause);
  });

  it('passes an envelope error through unchanged', () => {
    const original = new EnvelopeError({ category: 'NOT_FOUND', code: 'X', remediation: 'y' });
    expect(toLogError(original, 'log.read', 'f')).toBe(original);
  });

  it('turns anything else into LOG_INTERNAL without a stack trace', () => {
    const envelope = toLogError(new RangeError('Invalid time value'), 'log.append', 'f').envelope;
    expect(envelope).toMatchObject({ category: 'INTERNAL', code: 'LOG_INTERNAL' });
    expect(envelope.remediation).toContain('Invalid time value');
    expect(JSON.stringify(envelope)).not.toMatch(/\n\s+at /);
  });
});
