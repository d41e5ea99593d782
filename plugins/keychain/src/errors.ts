import { EnvelopeError, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The plugin's package name, named in its envelopes. */
export const KEYCHAIN_PLUGIN = '@nodwyn/plugin-keychain';

/** Codes of the keychain's envelopes. */
export const KeychainCodes = {
  KEYCHAIN_CORRUPT: 'KEYCHAIN_CORRUPT',
  KEYCHAIN_TOO_LARGE: 'KEYCHAIN_TOO_LARGE',
  KEYCHAIN_VERSION_UNSUPPORTED: 'KEYCHAIN_VERSION_UNSUPPORTED',
  KEYCHAIN_LOCKED: 'KEYCHAIN_LOCKED',
  KEYCHAIN_KEY_WRONG: 'KEYCHAIN_KEY_WRONG',
  KEYCHAIN_KEY_FILE_UNSAFE: 'KEYCHAIN_KEY_FILE_UNSAFE',
  KEYCHAIN_KEY_FILE_INVALID: 'KEYCHAIN_KEY_FILE_INVALID',
  SECRET_NOT_FOUND: 'SECRET_NOT_FOUND',
  SECRET_EXISTS: 'SECRET_EXISTS',
  SECRET_NAME_INVALID: 'SECRET_NAME_INVALID',
  SECRET_CLASS_INVALID: 'SECRET_CLASS_INVALID',
  SECRET_VALUE_INVALID: 'SECRET_VALUE_INVALID',
  KEYCHAIN_LIMIT: 'KEYCHAIN_LIMIT',
} as const;

/** Throws a keychain envelope; never put a secret value in `init`. */
export function keychainFail(code: keyof typeof KeychainCodes, init: Omit<EnvelopeInit, 'code'>): never {
  throw new EnvelopeError({ ...init, code, plugin: KEYCHAIN_PLUGIN });
}
