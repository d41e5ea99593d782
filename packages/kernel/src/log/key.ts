import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { LogCodes } from './errors.js';
import { keyMissing } from './key-binding.js';

/** Length of the checkpoint HMAC key, in bytes. */
export const LOG_KEY_BYTES = 32;

/** Where the checkpoint key comes from. */
export interface LogKeySource {
  /** Path of the key file; created (32 random bytes, mode 0600) when missing. */
  readonly keyPath?: string;
  /** The key itself (32 bytes), e.g. for `:memory:` logs in tests. */
  readonly key?: Buffer;
}

/** Refuses key options that cannot work, before any file is created. */
export function checkKeySource(source: LogKeySource, memory: boolean): void {
  if (source.key !== undefined && source.keyPath !== undefined) {
    optionsInvalid('Both `key` and `keyPath` were given; pass one of them.');
  }
  if (source.key === undefined && source.keyPath === undefined && !memory) {
    optionsInvalid('A file log needs a checkpoint key: pass `keyPath` (a file outside the database, created on first use) or `key`.');
  }
}

/**
 * Resolves the checkpoint key. The key must live outside the database: a checkpoint signed with a key
 * stored next to the events would be rewritten along with them. A `:memory:` log without a key gets a
 * random one, since nothing outlives the process to verify against. A missing key file is created only
 * when `signed()` says no session was signed yet: otherwise a new key would make the log look forged.
 */
export function loadLogKey(source: LogKeySource, memory: boolean, signed: () => number = () => 0, file = 'the log'): Buffer {
  checkKeySource(source, memory);
  if (source.key !== undefined) return checkLength(source.key, '`key`');
  const keyPath = source.keyPath;
  if (keyPath === undefined) return randomBytes(LOG_KEY_BYTES);
  return withFsErrors(keyPath, () => {
    if (!fs.existsSync(keyPath)) {
      const count = signed();
      if (count > 0) throw keyMissing({ file, keyName: keyPath }, count);
      createKeyFile(keyPath);
    }
    return readKeyFile(keyPath);
  });
}

function withFsErrors(keyPath: string, read: (keyPath: string) => Buffer): Buffer {
  try {
    return read(keyPath);
  } catch (error) {
    if (error instanceof EnvelopeError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new EnvelopeError(
      {
        category: 'PRECONDITION_FAILED',
        code: LogCodes.LOG_OPEN_FAILED,
        operation: 'log.open',
        failed_parameter: 'keyPath',
        received_value: code,
        remediation: `The log key ${keyPath} cannot be read or created (${code}). Check that its folder exists and that you may write there.`,
      },
      { cause: error },
    );
  }
}

function readKeyFile(keyPath: string): Buffer {
  const stat = fs.statSync(keyPath);
  if (!stat.isFile()) keyInvalid(keyPath, 'is not a regular file');
  // Windows has no POSIX mode bits; its ACLs are out of reach here, so the check is POSIX only.
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new EnvelopeError({
      category: 'PRECONDITION_FAILED',
      code: LogCodes.LOG_KEY_PERMISSIONS,
      operation: 'log.open',
      failed_parameter: 'keyPath',
      received_value: `mode ${(stat.mode & 0o777).toString(8)}`,
      expected: 'mode 600 (owner read/write only)',
      remediation: `The log key ${keyPath} is readable or writable by others, so its checkpoints prove nothing. Run \`chmod 600 ${keyPath}\` if you trust it, or move it aside to start a new key.`,
    });
  }
  return checkLength(fs.readFileSync(keyPath), keyPath);
}

/**
 * Writes a fresh key to a private temp file, then hard-links it into place. `link` fails when the
 * target exists, so two processes opening the log at once never see a half-written key, and the
 * first one wins for both.
 */
function createKeyFile(keyPath: string): void {
  const temp = `${keyPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, randomBytes(LOG_KEY_BYTES), { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temp, keyPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.unlinkSync(temp);
  }
}

function checkLength(key: Buffer, where: string): Buffer {
  if (!Buffer.isBuffer(key) || key.length !== LOG_KEY_BYTES) {
    keyInvalid(where, `holds ${Buffer.isBuffer(key) ? key.length : 'no'} bytes, not ${LOG_KEY_BYTES}`);
  }
  return key;
}

function keyInvalid(where: string, problem: string): never {
  throw new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: LogCodes.LOG_KEY_INVALID,
    operation: 'log.open',
    failed_parameter: 'keyPath',
    expected: `a regular file of exactly ${LOG_KEY_BYTES} bytes`,
    remediation: `The log key ${where} ${problem}. Restore the right key file; without it the log's checkpoints cannot be checked.`,
  });
}

function optionsInvalid(remediation: string): never {
  throw new EnvelopeError({ category: 'VALIDATION_FAILED', code: LogCodes.LOG_OPTIONS_INVALID, operation: 'log.open', remediation });
}
