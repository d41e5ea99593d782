import { isEnvelopeError, type Envelope } from '@nodwyn/plugin-api';
import fc from 'fast-check';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileKeychain } from './file-keychain.js';

const VALUE = 'ghp_s3cretValueThatMustNeverLeak0123456789';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nodwyn-keychain-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const withKeyFile = () => new FileKeychain(join(dir, 'keychain.json'), { keyFile: join(dir, 'keychain.key') });
const withPassphrase = (passphrase: string) => new FileKeychain(join(dir, 'keychain.json'), { passphrase, keyFile: join(dir, 'unused.key') });

async function envelopeOf(promise: Promise<unknown>): Promise<Envelope> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isEnvelopeError(error)) throw new Error(`expected an envelope, got ${String(error)}`);
  expect(JSON.stringify(error.envelope)).not.toContain(VALUE);
  return error.envelope;
}

describe('FileKeychain', () => {
  it('round-trips with a key file it creates 0600, and never writes the value in clear', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    expect(statSync(join(dir, 'keychain.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'keychain.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'keychain.json'), 'utf8')).not.toContain(VALUE);
    expect(readFileSync(join(dir, 'keychain.json')).includes(Buffer.from(VALUE))).toBe(false);
    expect(await withKeyFile().reveal('gh')).toBe(VALUE);
  });

  it('round-trips with a passphrase, and a wrong one is AUTH_FAILED', async () => {
    await withPassphrase('correct horse').add('gh', 'github', VALUE);
    expect(await withPassphrase('correct horse').reveal('gh')).toBe(VALUE);
    expect(await envelopeOf(withPassphrase('wrong horse').reveal('gh'))).toMatchObject({ category: 'AUTH_FAILED', code: 'KEYCHAIN_KEY_WRONG' });
    expect(await envelopeOf(withKeyFile().reveal('gh'))).toMatchObject({ category: 'AUTH_FAILED', code: 'KEYCHAIN_LOCKED' });
  });

  it('refuses a key file others can read', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    chmodSync(join(dir, 'keychain.key'), 0o644);
    expect(await envelopeOf(withKeyFile().reveal('gh'))).toMatchObject({ category: 'PERMISSION_DENIED', code: 'KEYCHAIN_KEY_FILE_UNSAFE' });
  });

  it('lists names, classes and dates but never values, and records last use', async () => {
    const keychain = withKeyFile();
    await keychain.add('gh', 'github', VALUE);
    expect((await keychain.list())[0]).toEqual({ name: 'gh', class: 'github', created: expect.any(String) });
    await keychain.reveal('gh');
    expect((await keychain.info('gh'))?.lastUsed).toEqual(expect.any(String));
    expect(JSON.stringify(await keychain.list())).not.toContain(VALUE);
  });

  it('refuses to replace a secret without force, and removes one', async () => {
    const keychain = withKeyFile();
    await keychain.add('gh', 'github', VALUE);
    expect(await envelopeOf(keychain.add('gh', 'github', 'other'))).toMatchObject({ code: 'SECRET_EXISTS' });
    await keychain.add('gh', 'github', 'replaced', true);
    expect(await keychain.reveal('gh')).toBe('replaced');
    await keychain.remove('gh');
    expect(await envelopeOf(keychain.reveal('gh'))).toMatchObject({ category: 'NOT_FOUND' });
  });

  it('catches ciphertexts swapped between entries (they are bound to name and class)', async () => {
    const keychain = withKeyFile();
    await keychain.add('a', 'github', VALUE);
    await keychain.add('b', 'github', 'other-value');
    const file = JSON.parse(readFileSync(join(dir, 'keychain.json'), 'utf8'));
    [file.entries.a.data, file.entries.b.data] = [file.entries.b.data, file.entries.a.data];
    [file.entries.a.iv, file.entries.b.iv] = [file.entries.b.iv, file.entries.a.iv];
    [file.entries.a.tag, file.entries.b.tag] = [file.entries.b.tag, file.entries.a.tag];
    writeFileSync(join(dir, 'keychain.json'), JSON.stringify(file));
    expect(await envelopeOf(keychain.reveal('a'))).toMatchObject({ category: 'AUTH_FAILED' });
  });

  it('turns a corrupt, oversized or future-version file into an envelope and leaves it untouched', async () => {
    const path = join(dir, 'keychain.json');
    for (const [content, code] of [
      ['{"version": 1, "entries": ', 'KEYCHAIN_CORRUPT'],
      ['{"version": 1, "kdf": {"type": "keyfile"}, "entries": {}}', 'KEYCHAIN_CORRUPT'],
      ['{"version": 7}', 'KEYCHAIN_VERSION_UNSUPPORTED'],
      [' '.repeat(8 * 1024 * 1024 + 1), 'KEYCHAIN_TOO_LARGE'],
    ] as const) {
      writeFileSync(path, content);
      expect((await envelopeOf(withKeyFile().list())).code).toBe(code);
      expect((await envelopeOf(withKeyFile().add('x', 'github', 'v'))).code).toBe(code);
      expect(readFileSync(path, 'utf8')).toBe(content);
    }
  });

  it('never reads a truncated file as an empty keychain', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    const whole = readFileSync(join(dir, 'keychain.json'));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: whole.length - 2 }), async (cut) => {
        writeFileSync(join(dir, 'keychain.json'), whole.subarray(0, cut));
        const outcome = await withKeyFile().list().then((list) => list, (e: unknown) => e);
        expect(isEnvelopeError(outcome)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps the old file when a write cannot complete', async () => {
    const keychain = withKeyFile();
    await keychain.add('gh', 'github', VALUE);
    const before = readFileSync(join(dir, 'keychain.json'), 'utf8');
    // A directory where the temp file would go makes the write fail before the rename.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, `keychain.json.${process.pid}.tmp`));
    await expect(keychain.add('other', 'github', 'v')).rejects.toThrow();
    expect(readFileSync(join(dir, 'keychain.json'), 'utf8')).toBe(before);
  });

  it('validates names, classes and values', async () => {
    const keychain = withKeyFile();
    expect((await envelopeOf(keychain.add('bad name', 'github', 'v'))).code).toBe('SECRET_NAME_INVALID');
    expect((await envelopeOf(keychain.add('ok', 'GitHub', 'v'))).code).toBe('SECRET_CLASS_INVALID');
    expect((await envelopeOf(keychain.add('ok', 'github', ''))).code).toBe('SECRET_VALUE_INVALID');
  });
});
