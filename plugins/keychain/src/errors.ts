import { EnvelopeError, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The plugin's package name, named in its envelopes. */
export const KEYCHAIN_PLUGIN = '@nodwyn/plugin-keychain';

/** Codes of the keychain's envelopes. None of them ever carries a secret value. */
export const KeychainCodes = {
  /** keychain.json is not JSON, not UTF-8, truncated, or not the keychain's shape. */
  KEYCHAIN_CORRUPT: 'KEYCHAIN_CORRUPT',
  /** keychain.json is over the size or entry limit. */
  KEYCHAIN_TOO_LARGE: 'KEYCHAIN_TOO_LARGE',
  /** keychain.json has a `version` this plugin does not read. */
  KEYCHAIN_VERSION_UNSUPPORTED: 'KEYCHAIN_VERSION_UNSUPPORTED',
  /** keychain.json exists but could not be read (permissions, a directory, an I/O error). */
  KEYCHAIN_UNREADABLE: 'KEYCHAIN_UNREADABLE',
  /** The new keychain.json could not be written; the old one is intact. */
  KEYCHAIN_WRITE_FAILED: 'KEYCHAIN_WRITE_FAILED',
  /** The key source the keychain was made with is not available. */
  KEYCHAIN_LOCKED: 'KEYCHAIN_LOCKED',
  /** The key does not open the keychain: wrong passphrase or key file. */
  KEYCHAIN_KEY_WRONG: 'KEYCHAIN_KEY_WRONG',
  /** The key file can be read by group or others. */
  KEYCHAIN_KEY_FILE_UNSAFE: 'KEYCHAIN_KEY_FILE_UNSAFE',
  /** The key file is not a readable regular file of 32 bytes. */
  KEYCHAIN_KEY_FILE_INVALID: 'KEYCHAIN_KEY_FILE_INVALID',
  /** The keychain already holds the maximum number of secrets. */
  KEYCHAIN_LIMIT: 'KEYCHAIN_LIMIT',
  SECRET_NOT_FOUND: 'SECRET_NOT_FOUND',
  SECRET_EXISTS: 'SECRET_EXISTS',
  /** The key is right but this entry does not authenticate: edited, or moved from another name or class. */
  SECRET_TAMPERED: 'SECRET_TAMPERED',
  SECRET_NAME_INVALID: 'SECRET_NAME_INVALID',
  SECRET_CLASS_INVALID: 'SECRET_CLASS_INVALID',
  SECRET_VALUE_INVALID: 'SECRET_VALUE_INVALID',
  /** `secret add` on a terminal whose echo cannot be turned off. */
  SECRET_INPUT_NOT_HIDDEN: 'SECRET_INPUT_NOT_HIDDEN',
  /** Ctrl-C at the value prompt. */
  SECRET_INPUT_CANCELLED: 'SECRET_INPUT_CANCELLED',
} as const;

/** A keychain code. */
export type KeychainCode = keyof typeof KeychainCodes;

/** A keychain envelope error; never put a secret value in `init`. */
export function keychainError(code: KeychainCode, init: Omit<EnvelopeInit, 'code'>, cause?: unknown): EnvelopeError {
  return new EnvelopeError({ ...init, code, plugin: KEYCHAIN_PLUGIN }, cause === undefined ? undefined : { cause });
}

/** Throws a keychain envelope; never put a secret value in `init`. */
export function keychainFail(code: KeychainCode, init: Omit<EnvelopeInit, 'code'>, cause?: unknown): never {
  throw keychainError(code, init, cause);
}

/** The errno code of a foreign file-system error, for messages and ENOENT checks. */
export function errnoOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'unknown error';
}
