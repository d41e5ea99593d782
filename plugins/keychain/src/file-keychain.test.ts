import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeOf } from '../test/envelope-of.js';
import { FileKeychain } from './file-keychain.js';

const VALUE = 'ghp_s3cretValueThatMustNeverLeak0123456789';
let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nodwyn-keychain-'));
  path = join(dir, 'keychain.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const keyFile = () => join(dir, 'keychain.key');
const withKeyFile = (now?: () => Date) => new FileKeychain(path, { keyFile: keyFile() }, now);
const withPassphrase = (passphrase: string) => new FileKeychain(path, { passphrase, keyFile: keyFile() });
const bytes = () => readFileSync(path);
// A digest, not the bytes: deep equality of an 8 MiB buffer takes vitest minutes.
const digest = () => createHash('sha256').update(bytes()).digest('hex');
const json = () => JSON.parse(readFileSync(path, 'utf8'));

describe('FileKeychain: keys', () => {
  it('round-trips with a key file it creates 0600, and says it created it', async () => {
    expect(await withKeyFile().add('gh', 'github', VALUE)).toEqual({ createdKeyFile: keyFile() });
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(statSync(keyFile()).size).toBe(32);
    expect(await withKeyFile().add('other', 'github', 'v2')).toEqual({});
    expect(await withKeyFile().reveal('gh')).toBe(VALUE);
  });

  it('round-trips with a passphrase through scrypt (N ≥ 2^15), creating no key file', async () => {
    expect(await withPassphrase('correct horse').add('gh', 'github', VALUE)).toEqual({});
    expect(existsSync(keyFile())).toBe(false);
    expect(json().kdf).toMatchObject({ type: 'scrypt', N: 2 ** 15, r: 8, p: 1 });
    expect(await withPassphrase('correct horse').reveal('gh')).toBe(VALUE);
  });

  it('is AUTH_FAILED with a wrong passphrase, even with no secrets left, and with none at all', async () => {
    await withPassphrase('correct horse').add('gh', 'github', VALUE);
    expect(await envelopeOf(withPassphrase('wrong horse').reveal('gh'), [VALUE])).toMatchObject({ category: 'AUTH_FAILED', code: 'KEYCHAIN_KEY_WRONG' });
    await withPassphrase('correct horse').remove('gh');
    expect(await envelopeOf(withPassphrase('wrong horse').add('x', 'github', 'v'))).toMatchObject({ category: 'AUTH_FAILED', code: 'KEYCHAIN_KEY_WRONG' });
    expect(await envelopeOf(withKeyFile().add('x', 'github', 'v'))).toMatchObject({ category: 'AUTH_FAILED', code: 'KEYCHAIN_LOCKED' });
  });

  it('is AUTH_FAILED with another key file, and locked (not re-keyed) when the key file is gone', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    writeFileSync(keyFile(), Buffer.alloc(32, 7), { mode: 0o600 });
    expect((await envelopeOf(withKeyFile().reveal('gh'), [VALUE])).code).toBe('KEYCHAIN_KEY_WRONG');
    rmSync(keyFile());
    expect((await envelopeOf(withKeyFile().add('x', 'github', 'v'))).code).toBe('KEYCHAIN_LOCKED');
    expect(existsSync(keyFile())).toBe(false);
  });

  it('refuses a key file group or others can read, and one of the wrong size', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    chmodSync(keyFile(), 0o644);
    expect(await envelopeOf(withKeyFile().reveal('gh'), [VALUE])).toMatchObject({ category: 'PERMISSION_DENIED', code: 'KEYCHAIN_KEY_FILE_UNSAFE' });
    writeFileSync(keyFile(), Buffer.alloc(31));
    chmodSync(keyFile(), 0o600);
    expect((await envelopeOf(withKeyFile().reveal('gh'))).code).toBe('KEYCHAIN_KEY_FILE_INVALID');
  });

  it('opens a keychain with the source it was made with, whatever the environment prefers now', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    expect(await withPassphrase('set later').reveal('gh')).toBe(VALUE);
  });
});

describe('FileKeychain: secrets', () => {
  it.each([
    ['a key file', () => withKeyFile()],
    ['a passphrase', () => withPassphrase('correct horse')],
  ])('never writes the value in clear with %s', async (_, keychain) => {
    await keychain().add('gh', 'github', VALUE);
    expect(bytes().includes(Buffer.from(VALUE))).toBe(false);
    expect(bytes().toString('utf8')).toContain('"gh"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('lists names, classes and dates without a key, and never values', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    rmSync(keyFile());
    const listed = await withKeyFile().list();
    expect(listed).toEqual([{ name: 'gh', class: 'github', created: expect.stringMatching(/^\d{4}-/) }]);
    expect(JSON.stringify(listed)).not.toContain(VALUE);
    expect(await withKeyFile().info('missing')).toBeUndefined();
  });

  it('records and persists the last use on each reveal', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    await withKeyFile(() => now).add('gh', 'github', VALUE);
    expect((await withKeyFile().info('gh'))?.lastUsed).toBeUndefined();
    now = new Date('2026-02-02T00:00:00.000Z');
    await withKeyFile(() => now).reveal('gh');
    expect(await withKeyFile().info('gh')).toEqual({ name: 'gh', class: 'github', created: '2026-01-01T00:00:00.000Z', lastUsed: '2026-02-02T00:00:00.000Z' });
    now = new Date('2026-03-03T00:00:00.000Z');
    await withKeyFile(() => now).reveal('gh');
    expect(json().entries.gh.last_used).toBe('2026-03-03T00:00:00.000Z');
  });

  it('refuses to replace a secret without force, replaces with it, and removes', async () => {
    const keychain = withKeyFile();
    await keychain.add('gh', 'github', VALUE);
    expect((await envelopeOf(keychain.add('gh', 'github', 'other'), [VALUE, 'other'])).code).toBe('SECRET_EXISTS');
    await keychain.add('gh', 'gitlab', 'replaced', true);
    expect(await keychain.reveal('gh')).toBe('replaced');
    expect((await keychain.info('gh'))?.class).toBe('gitlab');
    await keychain.remove('gh');
    expect(await envelopeOf(keychain.reveal('gh'))).toMatchObject({ category: 'NOT_FOUND', code: 'SECRET_NOT_FOUND' });
    expect((await envelopeOf(keychain.remove('gh'))).code).toBe('SECRET_NOT_FOUND');
  });

  it('treats names like constructor and __proto__ as names', async () => {
    const keychain = withKeyFile();
    await keychain.add('a', 'github', 'a-value');
    expect((await envelopeOf(keychain.reveal('toString'))).code).toBe('SECRET_NOT_FOUND');
    await keychain.add('constructor', 'github', 'c-value');
    await keychain.add('__proto__', 'github', 'p-value');
    expect(await withKeyFile().reveal('__proto__')).toBe('p-value');
    expect((await withKeyFile().list()).map((s) => s.name)).toEqual(['__proto__', 'a', 'constructor']);
  });

  it('validates names, classes and values before touching the file', async () => {
    const keychain = withKeyFile();
    expect((await envelopeOf(keychain.add('bad name', 'github', 'v'))).code).toBe('SECRET_NAME_INVALID');
    expect((await envelopeOf(keychain.add('x'.repeat(65), 'github', 'v'))).code).toBe('SECRET_NAME_INVALID');
    expect((await envelopeOf(keychain.add('ok', 'GitHub', 'v'))).code).toBe('SECRET_CLASS_INVALID');
    expect((await envelopeOf(keychain.add('ok', 'github', ''))).code).toBe('SECRET_VALUE_INVALID');
    expect((await envelopeOf(keychain.add('ok', 'github', 'x'.repeat(64 * 1024 + 1)))).code).toBe('SECRET_VALUE_INVALID');
    expect(existsSync(path) || existsSync(keyFile())).toBe(false);
  });

  it('loses no secret when adds and reveals of one instance overlap', async () => {
    const keychain = withPassphrase('p');
    await keychain.add('first', 'github', 'v0');
    await Promise.all([...Array.from({ length: 5 }, (_, i) => keychain.add(`s${i}`, 'github', `v${i}`)), keychain.reveal('first'), keychain.reveal('first')]);
    expect((await keychain.list()).map((s) => s.name)).toEqual(['first', 's0', 's1', 's2', 's3', 's4']);
    expect(await keychain.reveal('s3')).toBe('v3');
  });
});

describe('FileKeychain: damaged files', () => {
  it('catches ciphertexts swapped between entries, and an edited class (both bound as AAD)', async () => {
    await withKeyFile().add('a', 'github', VALUE);
    await withKeyFile().add('b', 'github', 'other-value');
    const file = json();
    [file.entries.a, file.entries.b] = [{ ...file.entries.b, created: file.entries.a.created }, { ...file.entries.a, created: file.entries.b.created }];
    writeFileSync(path, JSON.stringify(file));
    const swapped = bytes();
    expect(await envelopeOf(withKeyFile().reveal('a'), [VALUE, 'other-value'])).toMatchObject({ category: 'AUTH_FAILED', code: 'SECRET_TAMPERED' });
    expect(bytes()).toEqual(swapped);
    file.entries.b = { ...file.entries.a, class: 'attacker-bound' };
    writeFileSync(path, JSON.stringify(file));
    expect((await envelopeOf(withKeyFile().reveal('b'), [VALUE])).code).toBe('SECRET_TAMPERED');
  });

  it.each([
    ['corrupt JSON', () => '{"version": 1, "entries": ', 'KEYCHAIN_CORRUPT'],
    ['a wrong schema', () => '{"version": 1, "kdf": {"type": "keyfile"}, "entries": {}}', 'KEYCHAIN_CORRUPT'],
    ['an unknown version', () => '{"version": 7}', 'KEYCHAIN_VERSION_UNSUPPORTED'],
    ['an oversized file', () => ' '.repeat(8 * 1024 * 1024 + 1), 'KEYCHAIN_TOO_LARGE'],
  ])('answers %s with an envelope on every operation and leaves the file untouched', async (_, content, code) => {
    writeFileSync(path, content());
    const before = digest();
    for (const operation of [() => withKeyFile().list(), () => withKeyFile().reveal('gh'), () => withKeyFile().add('gh', 'github', VALUE, true), () => withKeyFile().remove('gh')]) {
      expect((await envelopeOf(operation(), [VALUE])).code).toBe(code);
    }
    expect(digest()).toBe(before);
  });

  it('never reads a file cut anywhere as a keychain, nor overwrites it', async () => {
    await withKeyFile().add('gh', 'github', VALUE);
    await withKeyFile().add('aws', 'aws', 'aws-value');
    const whole = bytes();
    // The file ends in "}\n": cutting the newline alone still leaves a whole keychain.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: whole.length - 2 }), async (cut) => {
        writeFileSync(path, whole.subarray(0, cut));
        expect((await envelopeOf(withKeyFile().list())).code).toBe('KEYCHAIN_CORRUPT');
        expect((await envelopeOf(withKeyFile().add('new', 'github', VALUE), [VALUE])).code).toBe('KEYCHAIN_CORRUPT');
        expect(bytes()).toEqual(whole.subarray(0, cut));
      }),
      { numRuns: 100 },
    );
  });
});
