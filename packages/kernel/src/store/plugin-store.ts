import { EnvelopeError, type PluginStore } from '@nodwyn/plugin-api';
import type { SqliteDatabase } from '../log/schema.js';
import { findJsonProblem } from '../log/json-value.js';
import { KernelCodes } from '../errors.js';

/** Runs a database operation, turning SQLite failures into the log's envelopes. */
export type UseDatabase = <T>(operation: string, fn: () => T) => T;

/** The statements every plugin's store shares. */
export interface StoreStatements {
  readonly get: (plugin: string, key: string) => string | undefined;
  readonly put: (plugin: string, key: string, value: string) => void;
  readonly delete: (plugin: string, key: string) => boolean;
  readonly list: (plugin: string, prefix: string) => { key: string; value: string }[];
}

/** Prepares the plugin store's statements on the kernel database (its table is part of the log's schema). */
export function prepareStoreStatements(db: SqliteDatabase): StoreStatements {
  const get = db.prepare<[string, string], { value: string }>('SELECT value FROM plugin_store WHERE plugin = ? AND key = ?');
  const put = db.prepare(
    'INSERT INTO plugin_store (plugin, key, value) VALUES (?, ?, ?) ON CONFLICT (plugin, key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare('DELETE FROM plugin_store WHERE plugin = ? AND key = ?');
  const list = db.prepare<[string, string, string], { key: string; value: string }>(
    'SELECT key, value FROM plugin_store WHERE plugin = ? AND substr(key, 1, length(?)) = ? ORDER BY key',
  );
  return {
    get: (plugin, key) => get.get(plugin, key)?.value,
    put: (plugin, key, value) => void put.run(plugin, key, value),
    delete: (plugin, key) => remove.run(plugin, key).changes > 0,
    list: (plugin, prefix) => list.all(plugin, prefix, prefix),
  };
}

/**
 * One plugin's view of the store: its own keys only. `transaction` is the log's, so events appended
 * inside it commit or roll back with the writes.
 */
export function pluginStore(
  plugin: string,
  statements: StoreStatements,
  use: UseDatabase,
  transaction: <T>(fn: () => T) => T,
): PluginStore {
  return {
    get: (key) => {
      checkKey(key, 'store.get');
      const text = use('store.get', () => statements.get(plugin, key));
      return text === undefined ? undefined : JSON.parse(text);
    },
    put: (key, value) => {
      checkKey(key, 'store.put');
      const text = encode(value);
      use('store.put', () => statements.put(plugin, key, text));
    },
    delete: (key) => {
      checkKey(key, 'store.delete');
      return use('store.delete', () => statements.delete(plugin, key));
    },
    list: (prefix = '') => use('store.list', () => statements.list(plugin, prefix)).map((row) => ({ key: row.key, value: JSON.parse(row.value) as unknown })),
    transaction: (fn) => transaction(fn),
  };
}

function checkKey(key: unknown, operation: string): asserts key is string {
  if (typeof key === 'string' && key.length > 0 && key.length <= 512) return;
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: KernelCodes.STORE_KEY_INVALID,
    operation,
    failed_parameter: 'key',
    received_value: key,
    expected: 'a string of 1 to 512 characters',
    remediation: 'Store keys are non-empty strings of at most 512 characters.',
  });
}

function encode(value: unknown): string {
  const problem = value === undefined ? { path: '$', reason: 'is undefined' } : findJsonProblem(value);
  if (!problem) return JSON.stringify(value);
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: KernelCodes.STORE_VALUE_INVALID,
    operation: 'store.put',
    failed_parameter: problem.path,
    expected: 'a JSON value',
    remediation: `The value to store ${problem.reason} at ${problem.path}; store plain JSON (objects, arrays, strings, finite numbers, booleans, null).`,
  });
}
