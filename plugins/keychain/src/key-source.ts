import { randomBytes, scryptSync } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keychainFail } from './errors.js';

/** How the file's key is derived; stored in the file so a mismatch is explained, not guessed. */
export type KdfRecord = { readonly type: 'scrypt'; readonly salt: string; readonly N: number; readonly r: number; readonly p: number } | { readonly type: 'keyfile' };

const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

/** Where the key comes from: the environment's passphrase first, else a key file. */
export interface KeySource {
  readonly passphrase?: string;
  readonly keyFile: string;
}

/** The key source for a data directory, from the environment. */
export function keySourceFor(dataDir: string, env: NodeJS.ProcessEnv = process.env): KeySource {
  return {
    ...(env.NODWYN_KEYCHAIN_PASSPHRASE ? { passphrase: env.NODWYN_KEYCHAIN_PASSPHRASE } : {}),
    keyFile: env.NODWYN_KEYCHAIN_KEY_FILE || join(dataDir, 'keychain.key'),
  };
}

/** The KDF record a new keychain gets from this source. */
export function newKdf(source: KeySource): KdfRecord {
  return source.passphrase ? { type: 'scrypt', salt: randomBytes(16).toString('base64'), ...SCRYPT } : { type: 'keyfile' };
}

/**
 * Derives the key named by `kdf`. A key file is created (0600) only when `create` is set: reading an
 * existing keychain with a missing key file is an error, never a fresh key that decrypts nothing.
 */
export function deriveKey(kdf: KdfRecord, source: KeySource, create: boolean): Buffer {
  if (kdf.type === 'scrypt') {
    if (!source.passphrase) {
      keychainFail('KEYCHAIN_LOCKED', {
        category: 'AUTH_FAILED',
        remediation: 'This keychain is locked with a passphrase; set NODWYN_KEYCHAIN_PASSPHRASE to unlock it.',
      });
    }
    return scryptSync(source.passphrase, Buffer.from(kdf.salt, 'base64'), KEY_BYTES, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 128 * kdf.N * kdf.r * 2 });
  }
  if (!existsSync(source.keyFile)) {
    if (!create) {
      keychainFail('KEYCHAIN_LOCKED', {
        category: 'AUTH_FAILED',
        received_value: source.keyFile,
        remediation: `The keychain's key file ${source.keyFile} is missing; restore it (or point NODWYN_KEYCHAIN_KEY_FILE at it).`,
      });
    }
    writeFileSync(source.keyFile, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
  }
  return readKeyFile(source.keyFile);
}

function readKeyFile(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    // Group- or world-readable means someone else may already hold the key.
    if ((stat.mode & 0o077) !== 0) {
      keychainFail('KEYCHAIN_KEY_FILE_UNSAFE', {
        category: 'PERMISSION_DENIED',
        received_value: `${path} (mode ${(stat.mode & 0o777).toString(8)})`,
        remediation: `Make the key file private: chmod 600 ${path}.`,
      });
    }
    const key = Buffer.alloc(KEY_BYTES + 1);
    const read = readSync(fd, key, 0, key.length, 0);
    if (read !== KEY_BYTES) {
      keychainFail('KEYCHAIN_KEY_FILE_INVALID', { category: 'PRECONDITION_FAILED', received_value: path, expected: `${KEY_BYTES} bytes`, remediation: `The key file ${path} is not a nodwyn key; restore the original.` });
    }
    return key.subarray(0, KEY_BYTES);
  } finally {
    closeSync(fd);
  }
}
