import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeOf } from '../test/envelope-of.js';
import { FileKeychain } from './file-keychain.js';
import { readKeychainFile, writeKeychainFile } from './keychain-file.js';
import { LIMITS } from './limits.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nodwyn-keychain-file-'));
  path = join(dir, 'keychain.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** keychain.json as parsed, loosely typed so tests can damage it. */
interface FileJson {
  readonly [field: string]: unknown;
  readonly entries: { readonly gh: Record<string, unknown> };
}

/** A real keychain with one secret, as parsed JSON to damage. */
async function validJson(): Promise<FileJson> {
  await new FileKeychain(path, { keyFile: join(dir, 'keychain.key') }).add('gh', 'github', 'value-1');
  return JSON.parse(readFileSync(path, 'utf8'));
}

describe('readKeychainFile', () => {
  it('reads a missing file as no keychain, and a written one back', async () => {
    expect(readKeychainFile(path)).toBeUndefined();
    const json = await validJson();
    const file = readKeychainFile(path)!;
    expect(file.kdf).toEqual({ type: 'keyfile' });
    expect([...file.entries.keys()]).toEqual(['gh']);
    expect(json.version).toBe(1);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['not JSON', () => '{"version": 1, "entries": '],
    ['empty', () => ''],
    ['an array', () => '[]'],
    ['no version', (j: FileJson) => JSON.stringify({ ...j, version: undefined })],
    ['a missing check', (j: FileJson) => JSON.stringify({ ...j, check: undefined })],
    ['an unknown field', (j: FileJson) => JSON.stringify({ ...j, extra: true })],
    ['a short IV', (j: FileJson) => JSON.stringify({ ...j, entries: { gh: { ...j.entries.gh, iv: 'AAAA' } } })],
    ['an invalid class', (j: FileJson) => JSON.stringify({ ...j, entries: { gh: { ...j.entries.gh, class: 'Git Hub' } } })],
    ['an invalid name', (j: FileJson) => JSON.stringify({ ...j, entries: { 'bad name': j.entries.gh } })],
    ['a date that is not one', (j: FileJson) => JSON.stringify({ ...j, entries: { gh: { ...j.entries.gh, created: 'yesterday' } } })],
    ['a weak scrypt cost', (j: FileJson) => JSON.stringify({ ...j, kdf: { type: 'scrypt', salt: 'AAAAAAAAAAAAAAAAAAAAAA==', N: 1024, r: 8, p: 1 } })],
    ['a huge scrypt cost', (j: FileJson) => JSON.stringify({ ...j, kdf: { type: 'scrypt', salt: 'AAAAAAAAAAAAAAAAAAAAAA==', N: 2 ** 24, r: 8, p: 1 } })],
  ])('calls a file with %s KEYCHAIN_CORRUPT', async (_, damage) => {
    writeFileSync(path, damage(await validJson()));
    expect(await envelopeOf(() => readKeychainFile(path))).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'KEYCHAIN_CORRUPT' });
  });

  it('calls a file with bytes that are not UTF-8 KEYCHAIN_CORRUPT', async () => {
    const text = Buffer.from(JSON.stringify(await validJson()), 'utf8');
    const at = text.indexOf('"github"') + 1;
    writeFileSync(path, Buffer.concat([text.subarray(0, at), Buffer.from([0xff]), text.subarray(at)]));
    expect((await envelopeOf(() => readKeychainFile(path))).code).toBe('KEYCHAIN_CORRUPT');
  });

  it('names an unknown version as such', async () => {
    writeFileSync(path, JSON.stringify({ ...(await validJson()), version: 2 }));
    expect(await envelopeOf(() => readKeychainFile(path))).toMatchObject({ code: 'KEYCHAIN_VERSION_UNSUPPORTED', received_value: 'version 2' });
  });

  it('refuses a file over the size limit before reading it', async () => {
    writeFileSync(path, '{');
    truncateSync(path, LIMITS.fileBytes + 1);
    expect(await envelopeOf(() => readKeychainFile(path))).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'KEYCHAIN_TOO_LARGE' });
  });

  it('refuses more entries than the limit', async () => {
    const json = await validJson();
    const entries = Object.fromEntries(Array.from({ length: LIMITS.entries + 1 }, (_, i) => [`s${i}`, json.entries.gh]));
    writeFileSync(path, JSON.stringify({ ...json, entries }));
    expect((await envelopeOf(() => readKeychainFile(path))).code).toBe('KEYCHAIN_TOO_LARGE');
  });

  it('calls a path it cannot read as a file KEYCHAIN_UNREADABLE', async () => {
    mkdirSync(path);
    expect((await envelopeOf(() => readKeychainFile(path))).code).toBe('KEYCHAIN_UNREADABLE');
  });

  it('keeps names that are also Object.prototype keys as plain data', async () => {
    const json = await validJson();
    writeFileSync(path, `{"version":1,"kdf":{"type":"keyfile"},"check":${JSON.stringify(json.check)},"entries":{"__proto__":${JSON.stringify(json.entries.gh)}}}`);
    const file = readKeychainFile(path)!;
    expect([...file.entries.keys()]).toEqual(['__proto__']);
    writeKeychainFile(path, file);
    expect([...readKeychainFile(path)!.entries.keys()]).toEqual(['__proto__']);
  });
});
