import { z } from '@nodwyn/plugin-api';
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { keychainFail } from './errors.js';
import { CLASS, LIMITS, NAME } from './limits.js';

const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

const EntrySchema = z
  .object({ class: z.string().regex(CLASS), created: z.string(), last_used: z.string().optional(), iv: b64, tag: b64, data: b64 })
  .strict();

/** The keychain file. Metadata is clear so `list` needs no key; each value is AES-256-GCM ciphertext. */
export const KeychainFileSchema = z
  .object({
    version: z.literal(1),
    kdf: z.discriminatedUnion('type', [
      z.object({ type: z.literal('scrypt'), salt: b64, N: z.number().int().min(2 ** 14).max(2 ** 20), r: z.number().int().min(1).max(32), p: z.number().int().min(1).max(16) }).strict(),
      z.object({ type: z.literal('keyfile') }).strict(),
    ]),
    /** A known plaintext sealed with the key: a wrong key is caught even when there are no entries. */
    check: z.object({ iv: b64, tag: b64, data: b64 }).strict(),
    entries: z.record(z.string().regex(NAME), EntrySchema),
  })
  .strict();

/** A parsed keychain file. */
export type KeychainFile = z.infer<typeof KeychainFileSchema>;
/** One sealed entry. */
export type KeychainEntry = z.infer<typeof EntrySchema>;

/**
 * Reads and checks the file; `undefined` when it does not exist. Size is checked before reading, and any
 * damage is an envelope: a keychain that cannot be read is never treated as empty (that would let the
 * next write replace it).
 */
export function readKeychainFile(path: string): KeychainFile | undefined {
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, 'r');
  let text: string;
  try {
    const size = fstatSync(fd).size;
    if (size > LIMITS.fileBytes) {
      keychainFail('KEYCHAIN_TOO_LARGE', { category: 'LIMIT_EXCEEDED', received_value: `${size} bytes`, expected: `at most ${LIMITS.fileBytes} bytes`, remediation: `${path} is larger than any keychain nodwyn writes; restore it from a backup.` });
    }
    const buffer = Buffer.alloc(size);
    readSync(fd, buffer, 0, size, 0);
    text = buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
  return parseKeychain(text, path);
}

function parseKeychain(text: string, path: string): KeychainFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    keychainFail('KEYCHAIN_CORRUPT', { category: 'PRECONDITION_FAILED', received_value: path, remediation: `${path} is not valid JSON (truncated or edited); restore it from a backup. It was left untouched.` });
  }
  if (typeof raw === 'object' && raw !== null && (raw as { version?: unknown }).version !== 1) {
    keychainFail('KEYCHAIN_VERSION_UNSUPPORTED', { category: 'PRECONDITION_FAILED', received_value: (raw as { version?: unknown }).version, expected: 'version 1', remediation: 'This keychain was written by another nodwyn version; use that version or restore a backup.' });
  }
  const parsed = KeychainFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    keychainFail('KEYCHAIN_CORRUPT', { category: 'PRECONDITION_FAILED', received_value: path, expected: issue.message, remediation: `${path} does not have the keychain's shape (${issue.path.join('.') || 'root'}); restore it from a backup. It was left untouched.` });
  }
  if (Object.keys(parsed.data.entries).length > LIMITS.entries) {
    keychainFail('KEYCHAIN_TOO_LARGE', { category: 'LIMIT_EXCEEDED', expected: `at most ${LIMITS.entries} secrets`, remediation: `${path} holds more secrets than nodwyn writes; restore it from a backup.` });
  }
  return parsed.data;
}

/** Writes the file atomically: a temp file (0600), fsync, rename. A crash leaves the old or the new file. */
export function writeKeychainFile(path: string, file: KeychainFile): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(file, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
