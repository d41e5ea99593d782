import { isEnvelopeError, z } from '@nodwyn/plugin-api';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';
import { errnoOf, keychainFail } from './errors.js';
import type { KdfRecord } from './key-source.js';
import { CLASS, LIMITS, NAME } from './limits.js';
import type { Sealed } from './sealing.js';

const base64 = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9+/]*={0,2}$/);
const SealedSchema = z
  .object({
    iv: z.string().regex(/^[A-Za-z0-9+/]{16}$/, '12 bytes, base64'),
    tag: z.string().regex(/^[A-Za-z0-9+/]{22}==$/, '16 bytes, base64'),
    data: base64(Math.ceil(LIMITS.valueBytes / 3) * 4),
  })
  .strict();

const EntrySchema = SealedSchema.extend({ class: z.string().regex(CLASS), created: z.iso.datetime(), last_used: z.iso.datetime().optional() }).strict();

const isPowerOfTwo = (n: number): boolean => (n & (n - 1)) === 0;
// Bounds on scrypt's cost keep an edited file from making nodwyn allocate gigabytes (N*r*128 ≤ 256 MiB).
const KdfSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('scrypt'), salt: base64(64).min(16), N: z.number().int().min(2 ** 15).max(2 ** 18).refine(isPowerOfTwo, 'a power of two'), r: z.literal(8), p: z.number().int().min(1).max(4) }).strict(),
  z.object({ type: z.literal('keyfile') }).strict(),
]);

// Entries are checked one by one below, not with z.record: a record drops a `__proto__` key, which is a valid name.
const FileSchema = z.object({ version: z.literal(1), kdf: KdfSchema, check: SealedSchema, entries: z.looseObject({}) }).strict();

/** One sealed secret as stored. */
export type KeychainEntry = z.infer<typeof EntrySchema>;

/**
 * The keychain in memory. Names, classes and dates are clear in the file so `list` needs no key; each
 * value is AES-256-GCM ciphertext. `check` seals a known text, so a wrong key is caught even with no entries.
 */
export interface KeychainFile {
  readonly kdf: KdfRecord;
  readonly check: Sealed;
  /** A Map, so names like `constructor` or `__proto__` are data, never prototype properties. */
  readonly entries: ReadonlyMap<string, KeychainEntry>;
}

/**
 * Reads and checks the file; `undefined` when it does not exist. The size is checked before reading and
 * any damage is an envelope: a keychain that cannot be read is never taken for an empty one, which the
 * next write would then replace.
 */
export function readKeychainFile(path: string): KeychainFile | undefined {
  const bytes = readBounded(path);
  return bytes === undefined ? undefined : parseKeychain(bytes, path);
}

/** Writes the file atomically (see `writeFileAtomic`), mode 0600. */
export function writeKeychainFile(path: string, file: KeychainFile): void {
  const json = { version: 1, kdf: file.kdf, check: file.check, entries: Object.fromEntries(file.entries) };
  writeFileAtomic(path, `${JSON.stringify(json, null, 2)}\n`);
}

function readBounded(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    return unreadable(path, errnoOf(error), error);
  }
  try {
    return readUpToLimit(fd, path);
  } catch (error) {
    if (isEnvelopeError(error)) throw error;
    return unreadable(path, errnoOf(error), error);
  } finally {
    closeSync(fd);
  }
}

function readUpToLimit(fd: number, path: string): Buffer {
  const stat = fstatSync(fd);
  if (!stat.isFile()) unreadable(path, 'not a regular file');
  if (stat.size > LIMITS.fileBytes) tooLarge(path, `${stat.size} bytes`);
  // Never more than one byte past what fstat said, so a file growing meanwhile cannot make the read unbounded;
  // nodwyn's own writers rename, so the open file itself never changes under us.
  const buffer = Buffer.alloc(stat.size + 1);
  let total = 0;
  while (total < buffer.length) {
    const n = readSync(fd, buffer, total, buffer.length - total, total);
    if (n === 0) break;
    total += n;
  }
  if (total > LIMITS.fileBytes) tooLarge(path, `more than ${LIMITS.fileBytes} bytes`);
  return buffer.subarray(0, total);
}

function parseKeychain(bytes: Buffer, path: string): KeychainFile {
  const raw = parseJson(bytes, path);
  const version = (raw as { version?: unknown }).version;
  if (typeof version === 'number' && version !== 1) {
    keychainFail('KEYCHAIN_VERSION_UNSUPPORTED', {
      category: 'PRECONDITION_FAILED',
      received_value: `version ${version}`,
      expected: 'version 1',
      remediation: `${path} was written by another nodwyn version; use that version, or restore a backup. It was left untouched.`,
    });
  }
  const parsed = FileSchema.safeParse(raw);
  if (!parsed.success) corrupt(path, parsed.error.issues[0]!);
  // The raw object, not zod's copy: JSON.parse keeps a `__proto__` key as data, a copy may not.
  const rawEntries = (raw as { entries: Record<string, unknown> }).entries;
  const names = Object.keys(rawEntries);
  if (names.length > LIMITS.entries) tooLarge(path, `${names.length} secrets`);
  const entries = new Map<string, KeychainEntry>();
  for (const name of names) {
    if (!NAME.test(name)) corrupt(path, { path: ['entries'], message: `an invalid secret name` });
    const entry = EntrySchema.safeParse(rawEntries[name]);
    if (!entry.success) corrupt(path, { ...entry.error.issues[0]!, path: ['entries', name, ...entry.error.issues[0]!.path] });
    entries.set(name, entry.data);
  }
  return { kdf: parsed.data.kdf, check: parsed.data.check, entries };
}

function parseJson(bytes: Buffer, path: string): object {
  let raw: unknown;
  try {
    // fatal: invalid UTF-8 is damage, not something to paper over with U+FFFD.
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    return keychainFail(
      'KEYCHAIN_CORRUPT',
      { category: 'PRECONDITION_FAILED', received_value: path, expected: 'a JSON keychain, version 1', remediation: `${path} is not valid JSON (truncated or edited); restore it from a backup. It was left untouched.` },
      error,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) corrupt(path, { path: [], message: 'a JSON object' });
  return raw;
}

function corrupt(path: string, issue: { readonly path: readonly PropertyKey[]; readonly message: string }): never {
  const where = issue.path.map(String).join('.') || 'the top level';
  return keychainFail('KEYCHAIN_CORRUPT', {
    category: 'PRECONDITION_FAILED',
    received_value: path,
    expected: `${where}: ${issue.message}`,
    remediation: `${path} does not have the keychain's shape at ${where}; restore it from a backup. It was left untouched.`,
  });
}

function tooLarge(path: string, found: string): never {
  return keychainFail('KEYCHAIN_TOO_LARGE', {
    category: 'PRECONDITION_FAILED',
    received_value: found,
    expected: `at most ${LIMITS.fileBytes} bytes and ${LIMITS.entries} secrets`,
    remediation: `${path} is larger than any keychain nodwyn writes; restore it from a backup. It was left untouched.`,
  });
}

function unreadable(path: string, why: string, cause?: unknown): never {
  return keychainFail(
    'KEYCHAIN_UNREADABLE',
    { category: 'PRECONDITION_FAILED', received_value: `${path} (${why})`, remediation: `${path} could not be read; check that it is a file this user can read. It was left untouched.` },
    cause,
  );
}
