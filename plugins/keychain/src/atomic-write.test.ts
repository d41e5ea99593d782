import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelopeOf } from '../test/envelope-of.js';
import { writeFileAtomic } from './atomic-write.js';
import { FileKeychain } from './file-keychain.js';

// A crash between writing the temp file and renaming it: rename fails when told to.
const crash = vi.hoisted(() => ({ onRename: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    renameSync: (from: string, to: string) => {
      if (crash.onRename) throw Object.assign(new Error('EIO: simulated crash'), { code: 'EIO' });
      fs.renameSync(from, to);
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nodwyn-atomic-'));
  crash.onRename = false;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces the file with mode 0600 and leaves no temp file', () => {
    const path = join(dir, 'keychain.json');
    writeFileSync(path, 'old', { mode: 0o644 });
    writeFileAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['keychain.json']);
  });

  it('keeps the old file, removes the temp file and reports KEYCHAIN_WRITE_FAILED when the rename fails', async () => {
    const path = join(dir, 'keychain.json');
    writeFileSync(path, 'old');
    crash.onRename = true;
    expect(await envelopeOf(() => writeFileAtomic(path, 'new'))).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'KEYCHAIN_WRITE_FAILED' });
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['keychain.json']);
  });

  it('leaves a keychain whose update crashed readable, with its secrets', async () => {
    const keychain = new FileKeychain(join(dir, 'keychain.json'), { keyFile: join(dir, 'keychain.key') });
    await keychain.add('gh', 'github', 'first-value');
    const before = readFileSync(join(dir, 'keychain.json'));
    crash.onRename = true;
    expect((await envelopeOf(keychain.add('aws', 'aws', 'second-value'), ['second-value'])).code).toBe('KEYCHAIN_WRITE_FAILED');
    expect(readFileSync(join(dir, 'keychain.json'))).toEqual(before);
    crash.onRename = false;
    expect(await keychain.reveal('gh')).toBe('first-value');
    expect((await keychain.list()).map((s) => s.name)).toEqual(['gh']);
  });
});
