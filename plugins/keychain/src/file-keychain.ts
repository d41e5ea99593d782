import type { Keychain, SecretInfo } from '@nodwyn/plugin-api';
import { keychainFail } from './errors.js';
import { deriveKey, newKdf, type KeySource } from './key-source.js';
import { readKeychainFile, writeKeychainFile, type KeychainFile } from './keychain-file.js';
import { CLASS, LIMITS, NAME } from './limits.js';
import { open, seal } from './sealing.js';

const CHECK_TEXT = 'nodwyn-keychain-v1';
const aadOf = (name: string, cls: string): string => `${name}\u0000${cls}`;

/**
 * The keychain on disk. Every operation re-reads the file, so two processes see each other's changes;
 * the key is derived once per instance (scrypt is deliberately slow).
 */
export class FileKeychain implements Keychain {
  #key: Buffer | undefined;

  constructor(
    private readonly path: string,
    private readonly source: KeySource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<readonly SecretInfo[]> {
    const file = readKeychainFile(this.path);
    return Object.entries(file?.entries ?? {})
      .map(([name, e]) => ({ name, class: e.class, created: e.created, ...(e.last_used ? { lastUsed: e.last_used } : {}) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async info(name: string): Promise<SecretInfo | undefined> {
    return (await this.list()).find((s) => s.name === name);
  }

  /** The value of `name`; records when it was last used. */
  async reveal(name: string): Promise<string> {
    const file = this.#existing();
    const entry = file.entries[name] ?? notFound(name);
    const value = open(this.#keyFor(file, false), entry, aadOf(name, entry.class));
    writeKeychainFile(this.path, { ...file, entries: { ...file.entries, [name]: { ...entry, last_used: this.now().toISOString() } } });
    return value;
  }

  /** Stores a secret; an existing name is replaced only with `force`. */
  async add(name: string, cls: string, value: string, force = false): Promise<void> {
    checkInput(name, cls, value);
    const current = readKeychainFile(this.path);
    const file: KeychainFile = current ?? this.#fresh();
    const key = this.#keyFor(file, current === undefined);
    if (file.entries[name] && !force) {
      keychainFail('SECRET_EXISTS', { category: 'PRECONDITION_FAILED', received_value: name, remediation: `A secret named ${name} exists; remove it first or pass --force to replace it.` });
    }
    if (!file.entries[name] && Object.keys(file.entries).length >= LIMITS.entries) {
      keychainFail('KEYCHAIN_LIMIT', { category: 'LIMIT_EXCEEDED', expected: `at most ${LIMITS.entries} secrets`, remediation: 'Remove secrets you no longer use.' });
    }
    const entry = { class: cls, created: this.now().toISOString(), ...seal(key, value, aadOf(name, cls)) };
    writeKeychainFile(this.path, { ...file, entries: { ...file.entries, [name]: entry } });
  }

  /** Removes a secret. */
  async remove(name: string): Promise<void> {
    const file = this.#existing();
    if (!file.entries[name]) notFound(name);
    const { [name]: _removed, ...rest } = file.entries;
    writeKeychainFile(this.path, { ...file, entries: rest });
  }

  #existing(): KeychainFile {
    return readKeychainFile(this.path) ?? keychainFail('SECRET_NOT_FOUND', { category: 'NOT_FOUND', remediation: 'The keychain is empty; add a secret with `nodwyn secret add NAME --class CLASS`.' });
  }

  #fresh(): KeychainFile {
    return { version: 1, kdf: newKdf(this.source), check: { iv: '', tag: '', data: '' }, entries: {} };
  }

  // Derives the key and proves it against the file's check value (or seals a new check for a new file).
  #keyFor(file: KeychainFile, creating: boolean): Buffer {
    if (!this.#key) this.#key = deriveKey(file.kdf, this.source, creating);
    if (creating) (file as { check: KeychainFile['check'] }).check = seal(this.#key, CHECK_TEXT, 'check');
    else if (open(this.#key, file.check, 'check') !== CHECK_TEXT) keychainFail('KEYCHAIN_KEY_WRONG', { category: 'AUTH_FAILED', remediation: 'The keychain key does not match.' });
    return this.#key;
  }
}

function notFound(name: string): never {
  return keychainFail('SECRET_NOT_FOUND', { category: 'NOT_FOUND', received_value: name, remediation: `No secret named ${name}; \`nodwyn secret list\` shows the names.` });
}

function checkInput(name: string, cls: string, value: string): void {
  if (!NAME.test(name)) keychainFail('SECRET_NAME_INVALID', { category: 'VALIDATION_FAILED', failed_parameter: 'NAME', received_value: name, expected: NAME.source, remediation: 'Use letters, digits, dot, dash and underscore (at most 64).' });
  if (!CLASS.test(cls)) keychainFail('SECRET_CLASS_INVALID', { category: 'VALIDATION_FAILED', failed_parameter: '--class', received_value: cls, expected: CLASS.source, remediation: 'Classes are lower-case, e.g. github or aws-secret-key.' });
  if (value.length === 0 || Buffer.byteLength(value) > LIMITS.valueBytes) {
    keychainFail('SECRET_VALUE_INVALID', { category: 'VALIDATION_FAILED', failed_parameter: 'value', expected: `1 to ${LIMITS.valueBytes} bytes on stdin`, remediation: 'Pipe the value on stdin, e.g. printf %s "$TOKEN" | nodwyn secret add NAME --class CLASS.' });
  }
}
