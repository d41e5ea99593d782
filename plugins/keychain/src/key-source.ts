import { randomBytes, scrypt } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errnoOf, keychainFail } from './errors.js';

/** How a keychain's key is made; stored in the file, so the file (not the environment) decides how to open it. */
export type KdfRecord =
  | { readonly type: 'scrypt'; readonly salt: string; readonly N: number; readonly r: number; readonly p: number }
  | { readonly type: 'keyfile' };

/** scrypt cost for new keychains: N=2^15, r=8 is 32 MiB and about 0.1 s per derivation. */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** What the environment offers to unlock a keychain. */
export interface KeySource {
  readonly passphrase?: string;
  readonly keyFile: string;
}

/** A key, and the key file made for it if there was none (the CLI says so). */
export interface DerivedKey {
  readonly key: Buffer;
  readonly createdKeyFile?: string;
}

/** The key source for a data directory: `NODWYN_KEYCHAIN_PASSPHRASE`, and the key file's path. */
export function keySourceFor(dataDir: string, env: NodeJS.ProcessEnv = process.env): KeySource {
  return {
    // An empty passphrase is treated as unset: it would be a key anyone can derive.
    ...(env.NODWYN_KEYCHAIN_PASSPHRASE ? { passphrase: env.NODWYN_KEYCHAIN_PASSPHRASE } : {}),
    keyFile: resolve(env.NODWYN_KEYCHAIN_KEY_FILE || join(dataDir, 'keychain.key')),
  };
}

/** The KDF of a new keychain: the passphrase when one is set, else the key file. */
export function newKdf(source: KeySource): KdfRecord {
  return source.passphrase ? { type: 'scrypt', salt: randomBytes(SALT_BYTES).toString('base64'), ...SCRYPT } : { type: 'keyfile' };
}

/**
 * Derives the key `kdf` names. A key file is created (0600) only for a new keychain (`create`): an
 * existing keychain with a missing key file is locked, never given a fresh key that opens nothing.
 */
export async function deriveKey(kdf: KdfRecord, source: KeySource, create: boolean): Promise<DerivedKey> {
  if (kdf.type === 'scrypt') {
    if (!source.passphrase) {
      keychainFail('KEYCHAIN_LOCKED', {
        category: 'AUTH_FAILED',
        remediation: 'This keychain is locked with a passphrase; set NODWYN_KEYCHAIN_PASSPHRASE to unlock it.',
      });
    }
    return { key: await scryptKey(source.passphrase, kdf) };
  }
  const created = create && createKeyFile(source.keyFile);
  return { key: readKeyFile(source.keyFile), ...(created ? { createdKeyFile: source.keyFile } : {}) };
}

function scryptKey(passphrase: string, kdf: Extract<KdfRecord, { type: 'scrypt' }>): Promise<Buffer> {
  // The file schema caps N, r and p, so this bound cannot be raised by an edited file.
  const maxmem = 2 * 128 * kdf.N * kdf.r;
  return new Promise((done, failed) => {
    scrypt(passphrase, Buffer.from(kdf.salt, 'base64'), KEY_BYTES, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem }, (error, key) => (error ? failed(error) : done(key)));
  });
}

// `wx` never replaces a key file that appeared meanwhile: that key may already protect secrets.
function createKeyFile(path: string): boolean {
  try {
    writeFileSync(path, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    return keyFileInvalid(path, `could not be created (${errnoOf(error)})`, error);
  }
}

function readKeyFile(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') return keyFileInvalid(path, `could not be opened (${errnoOf(error)})`, error);
    return keychainFail('KEYCHAIN_LOCKED', {
      category: 'AUTH_FAILED',
      received_value: path,
      remediation: `The keychain's key file ${path} is missing; restore it, point NODWYN_KEYCHAIN_KEY_FILE at it, or set NODWYN_KEYCHAIN_PASSPHRASE if the keychain was made with one.`,
    });
  }
  try {
    return readKeyBytes(fd, path);
  } finally {
    closeSync(fd);
  }
}

function readKeyBytes(fd: number, path: string): Buffer {
  const stat = fstatSync(fd);
  if (!stat.isFile()) keyFileInvalid(path, 'is not a regular file');
  // Readable by group or others means someone else may already hold the key.
  if ((stat.mode & 0o077) !== 0) {
    keychainFail('KEYCHAIN_KEY_FILE_UNSAFE', {
      category: 'PERMISSION_DENIED',
      received_value: `${path} (mode ${(stat.mode & 0o777).toString(8)})`,
      expected: 'mode 600',
      remediation: `The key file ${path} is readable by others; run chmod 600 ${path}, and consider the secrets exposed if others could log in.`,
    });
  }
  const key = Buffer.alloc(KEY_BYTES + 1);
  const read = readSync(fd, key, 0, key.length, 0);
  if (read !== KEY_BYTES) keyFileInvalid(path, `is ${read > KEY_BYTES ? 'longer' : 'shorter'} than ${KEY_BYTES} bytes`);
  return key.subarray(0, KEY_BYTES);
}

function keyFileInvalid(path: string, why: string, cause?: unknown): never {
  return keychainFail(
    'KEYCHAIN_KEY_FILE_INVALID',
    { category: 'PRECONDITION_FAILED', received_value: path, expected: `a regular file of ${KEY_BYTES} random bytes, mode 600`, remediation: `The key file ${path} ${why}; restore the original key file.` },
    cause,
  );
}
