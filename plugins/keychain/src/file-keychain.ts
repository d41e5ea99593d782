import type { Keychain, SecretInfo } from '@nodwyn/plugin-api';
import { keychainFail } from './errors.js';
import { deriveKey, newKdf, type KdfRecord, type KeySource } from './key-source.js';
import { readKeychainFile, writeKeychainFile, type KeychainEntry, type KeychainFile } from './keychain-file.js';
import { CLASS, LIMITS, NAME } from './limits.js';
import { open, seal } from './sealing.js';

const CHECK_TEXT = 'nodwyn-keychain-v1';
// Names and classes cannot hold NUL, so this AAD is unambiguous, and no entry's AAD can equal 'check'.
const CHECK_AAD = 'check';
const aadOf = (name: string, cls: string): string => `${name}\u0000${cls}`;

/** What `add` did beyond storing the secret. */
export interface AddOutcome {
  /** The key file made for a new keychain, when there was none. */
  readonly createdKeyFile?: string;
}

/** A keychain file with the key that opens it (and the key file made for it, when new). */
interface Unlocked {
  readonly file: KeychainFile;
  readonly key: Buffer;
  readonly createdKeyFile?: string;
}

/**
 * The keychain on disk. Every operation re-reads the file, so processes see each other's changes. Keys
 * are derived once per process and KDF (scrypt is deliberately slow), and operations of one instance run
 * one at a time, so no read-modify-write overlaps another across the await for the key. The plugin's
 * `Keychain` service is built over it (index.ts): `add` and `remove` here are the CLI's, which refuse
 * what the service's `store` and `remove` accept (a replaced name, a missing one).
 */
export class FileKeychain implements Pick<Keychain, 'list' | 'info' | 'reveal'> {
  #key: { readonly kdf: string; readonly key: Buffer } | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly source: KeySource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<readonly SecretInfo[]> {
    const entries = readKeychainFile(this.path)?.entries ?? new Map<string, KeychainEntry>();
    return [...entries]
      .map(([name, entry]) => infoOf(name, entry))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async info(name: string): Promise<SecretInfo | undefined> {
    const entry = readKeychainFile(this.path)?.entries.get(name);
    return entry && infoOf(name, entry);
  }

  /** The value of `name`; records (persists) when it was last used. The only way a value leaves. */
  reveal(name: string): Promise<string> {
    return this.#serial(async () => {
      const { file, key } = (await this.#readUnlocked()) ?? emptyKeychain();
      const entry = file.entries.get(name) ?? notFound(name);
      const value = open(key, entry, aadOf(name, entry.class));
      if (value === undefined) tampered(name);
      this.#write(file, name, { ...entry, last_used: this.now().toISOString() });
      return value;
    });
  }

  /**
   * Every secret with its value, for the taint layer to remember at start (docs/architecture.md §6). Unlike
   * `reveal` it records no use, and a keychain that does not exist yet gives none (no key file is made).
   */
  values(): Promise<readonly { readonly name: string; readonly class: string; readonly value: string }[]> {
    return this.#serial(async () => {
      const unlocked = await this.#readUnlocked();
      if (!unlocked) return [];
      return [...unlocked.file.entries].map(([name, entry]) => {
        const value = open(unlocked.key, entry, aadOf(name, entry.class));
        return value === undefined ? tampered(name) : { name, class: entry.class, value };
      });
    });
  }

  /** Checks what can be checked before a value is asked for, so nobody types a secret only to see it refused. */
  assertAddable(name: string, cls: string, force: boolean): void {
    checkName(name, cls);
    checkRoom(readKeychainFile(this.path)?.entries, name, force);
  }

  /** Stores a secret; an existing name is replaced only with `force`. The first secret creates the keychain. */
  add(name: string, cls: string, value: string, force = false): Promise<AddOutcome> {
    return this.#serial(async () => {
      checkName(name, cls);
      checkValue(value);
      const { file, key, createdKeyFile } = (await this.#readUnlocked()) ?? (await this.#create());
      checkRoom(file.entries, name, force);
      this.#write(file, name, { ...seal(key, value, aadOf(name, cls)), class: cls, created: this.now().toISOString() });
      return createdKeyFile ? { createdKeyFile } : {};
    });
  }

  /** Removes a secret. Needs no key: whoever can write the file can delete from it anyway. */
  async remove(name: string): Promise<void> {
    if (await this.removeIfPresent(name)) return;
    if (!readKeychainFile(this.path)) emptyKeychain();
    notFound(name);
  }

  /** Removes a secret when there is one (false when there was none), also needing no key. */
  removeIfPresent(name: string): Promise<boolean> {
    return this.#serial(async () => {
      const file = readKeychainFile(this.path);
      if (!file?.entries.has(name)) return false;
      const entries = new Map(file.entries);
      entries.delete(name);
      writeKeychainFile(this.path, { ...file, entries });
      return true;
    });
  }

  #write(file: KeychainFile, name: string, entry: KeychainEntry): void {
    writeKeychainFile(this.path, { ...file, entries: new Map(file.entries).set(name, entry) });
  }

  // The file and its key. The file is read again once the key is derived: the first derivation is slow
  // (scrypt), and a write based on a read from before it could drop another process's change.
  async #readUnlocked(): Promise<Unlocked | undefined> {
    const before = readKeychainFile(this.path);
    if (before) await this.#unlock(before);
    const file = readKeychainFile(this.path);
    return file && { file, key: await this.#unlock(file) };
  }

  // A new keychain: its KDF, its key (maybe a new key file) and a sealed check value proving that key later.
  async #create(): Promise<Unlocked> {
    const kdf = newKdf(this.source);
    const { key, createdKeyFile } = await this.#derive(kdf, true);
    const file = { kdf, check: seal(key, CHECK_TEXT, CHECK_AAD), entries: new Map<string, KeychainEntry>() };
    return { file, key, ...(createdKeyFile ? { createdKeyFile } : {}) };
  }

  // The key of an existing keychain, proven against its check value: a wrong key is never taken for an empty keychain.
  async #unlock(file: KeychainFile): Promise<Buffer> {
    const { key } = await this.#derive(file.kdf, false);
    if (open(key, file.check, CHECK_AAD) !== CHECK_TEXT) {
      keychainFail('KEYCHAIN_KEY_WRONG', {
        category: 'AUTH_FAILED',
        remediation:
          file.kdf.type === 'scrypt'
            ? 'NODWYN_KEYCHAIN_PASSPHRASE does not open this keychain; set the passphrase it was made with.'
            : `The key file ${this.source.keyFile} does not open this keychain; restore the key file it was made with.`,
      });
    }
    return key;
  }

  async #derive(kdf: KdfRecord, create: boolean): Promise<{ key: Buffer; createdKeyFile?: string }> {
    // Cached per KDF, so a keychain re-created with a new salt is not sealed with the old key; never when
    // creating, so a new keychain's key is always the one on disk (or the passphrase's), not a stale copy.
    const id = JSON.stringify(kdf);
    if (!create && this.#key?.kdf === id) return { key: this.#key.key };
    const derived = await deriveKey(kdf, this.source, create);
    this.#key = { kdf: id, key: derived.key };
    return derived;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    // The caller gets `run` and its error; the queue only needs to know it settled.
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

function infoOf(name: string, entry: KeychainEntry): SecretInfo {
  return { name, class: entry.class, created: entry.created, ...(entry.last_used ? { lastUsed: entry.last_used } : {}) };
}

function notFound(name: string): never {
  return keychainFail('SECRET_NOT_FOUND', { category: 'NOT_FOUND', received_value: name, remediation: `No secret named ${name}; \`nodwyn secret list\` shows the names.` });
}

function emptyKeychain(): never {
  return keychainFail('SECRET_NOT_FOUND', { category: 'NOT_FOUND', remediation: 'The keychain is empty; add a secret with `nodwyn secret add NAME --class CLASS`.' });
}

function checkRoom(entries: ReadonlyMap<string, KeychainEntry> | undefined, name: string, force: boolean): void {
  if (entries?.has(name) && !force) exists(name);
  if (entries && !entries.has(name) && entries.size >= LIMITS.entries) {
    keychainFail('KEYCHAIN_LIMIT', { category: 'LIMIT_EXCEEDED', expected: `at most ${LIMITS.entries} secrets`, remediation: 'Remove secrets you no longer use (`nodwyn secret rm NAME`).' });
  }
}

function exists(name: string): never {
  return keychainFail('SECRET_EXISTS', { category: 'PRECONDITION_FAILED', received_value: name, remediation: `A secret named ${name} exists; remove it first (\`nodwyn secret rm ${name}\`) or pass --force to replace it.` });
}

function tampered(name: string): never {
  return keychainFail('SECRET_TAMPERED', {
    category: 'AUTH_FAILED',
    received_value: name,
    remediation: `The stored value of ${name} does not authenticate: it was edited, or moved from another name or class. Remove it and add it again.`,
  });
}

function checkName(name: string, cls: string): void {
  if (!NAME.test(name)) {
    keychainFail('SECRET_NAME_INVALID', {
      category: 'VALIDATION_FAILED',
      failed_parameter: 'NAME',
      received_value: name,
      expected: NAME.source,
      remediation: 'Use letters, digits, dot, dash and underscore (1 to 64).',
    });
  }
  if (!CLASS.test(cls)) {
    keychainFail('SECRET_CLASS_INVALID', {
      category: 'VALIDATION_FAILED',
      failed_parameter: '--class',
      received_value: cls,
      expected: CLASS.source,
      remediation: 'Classes are lower case and start with a letter or digit, e.g. github or aws-secret-key.',
    });
  }
}

function checkValue(value: string): void {
  if (value.length === 0 || Buffer.byteLength(value, 'utf8') > LIMITS.valueBytes) {
    keychainFail('SECRET_VALUE_INVALID', {
      category: 'VALIDATION_FAILED',
      failed_parameter: 'value',
      expected: `1 to ${LIMITS.valueBytes} bytes of UTF-8 on stdin`,
      remediation: value.length === 0 ? 'The value is empty; pipe it on stdin, e.g. printf %s "$TOKEN" | nodwyn secret add NAME --class CLASS.' : `The value is over ${LIMITS.valueBytes} bytes; the keychain holds credentials, not files.`,
    });
  }
}
