import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TempLog, envelopeOf, tempLog } from '../../test/log/helpers.js';
import { EventLog } from './event-log.js';
import { LOG_KEY_BYTES, loadLogKey } from './key.js';

describe('the checkpoint key', () => {
  let t: TempLog;
  beforeEach(() => {
    t = tempLog();
  });
  afterEach(() => t.cleanup());

  it('is created on first open as 32 random bytes with mode 0600, then reused', () => {
    const key = loadLogKey({ keyPath: t.keyPath }, false);
    const stat = fs.statSync(t.keyPath);
    expect(key).toHaveLength(LOG_KEY_BYTES);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(loadLogKey({ keyPath: t.keyPath }, false).equals(key)).toBe(true);
    expect(fs.readdirSync(t.dir)).toEqual([path.basename(t.keyPath)]);
  });

  it('is refused when group or others may read it', () => {
    fs.writeFileSync(t.keyPath, Buffer.alloc(LOG_KEY_BYTES, 7), { mode: 0o644 });
    fs.chmodSync(t.keyPath, 0o644);
    expect(envelopeOf(() => loadLogKey({ keyPath: t.keyPath }, false))).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'LOG_KEY_PERMISSIONS' });
    expect(envelopeOf(() => EventLog.open({ path: t.file, keyPath: t.keyPath })).code).toBe('LOG_KEY_PERMISSIONS');
  });

  it('is refused when it has the wrong length', () => {
    fs.writeFileSync(t.keyPath, Buffer.alloc(16, 7), { mode: 0o600 });
    expect(envelopeOf(() => loadLogKey({ keyPath: t.keyPath }, false)).code).toBe('LOG_KEY_INVALID');
    expect(envelopeOf(() => loadLogKey({ key: Buffer.alloc(31) }, true)).code).toBe('LOG_KEY_INVALID');
  });

  it('is refused when the path is a folder', () => {
    expect(envelopeOf(() => loadLogKey({ keyPath: t.dir }, false)).code).toBe('LOG_KEY_INVALID');
  });

  it('must be given for a file log, and only one way', () => {
    expect(envelopeOf(() => EventLog.open({ path: t.file })).code).toBe('LOG_OPTIONS_INVALID');
    expect(envelopeOf(() => loadLogKey({ key: Buffer.alloc(32), keyPath: t.keyPath }, false)).code).toBe('LOG_OPTIONS_INVALID');
    expect(fs.existsSync(t.file)).toBe(false);
  });

  it('fails with an envelope when its folder does not exist', () => {
    expect(envelopeOf(() => loadLogKey({ keyPath: path.join(t.dir, 'missing', 'key') }, false)).code).toBe('LOG_OPEN_FAILED');
  });

  it('is random for a :memory: log opened without one', () => {
    expect(loadLogKey({}, true).equals(loadLogKey({}, true))).toBe(false);
  });
});
