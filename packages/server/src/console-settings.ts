import type { Kernel } from '@nodwyn/kernel';
import { toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import type { Settings } from '@nodwyn/protocol';
import { validateConfig } from '@nodwyn/runtime';
import { serverErrors } from './errors.js';
import { readPersonConfig, writePersonConfig } from './person-config.js';
import { offeredProviders } from './provider-choices.js';
import { settingFields, type SettingField, type SettingFields } from './settings-fields.js';

type Table = Record<string, unknown>;

/** The settable fields for the providers `kernel`'s distribution offers. */
export function fieldsFor(kernel: Kernel): SettingFields {
  return settingFields(offeredProviders(kernel).map((f) => f.id));
}

/** `_nodwyn/settings/get`: the settable keys' values in config.toml (a key not there is left out), and their fields. */
export function currentSettings(file: string, fields: SettingFields): { file: string; settings: Settings; fields: SettingFields } {
  const config = readPersonConfig(file);
  const settings: Settings = {};
  for (const [section, keys] of Object.entries(fields)) {
    const table = tableAt(config, section);
    const values = Object.fromEntries(Object.keys(keys).flatMap((key) => (table?.[key] === undefined ? [] : [[key, table[key]]])));
    if (Object.keys(values).length > 0) settings[section] = values;
  }
  return { file, settings, fields };
}

/**
 * config.toml with `change` applied, checked: each section given has its settable keys replaced (a key
 * left out, or null, is unset; its other keys, such as a provider's `api_key`, stay), sections not given
 * stay as they are, and so does every table the console does not manage. Throws the envelope naming the
 * first bad key: one the console may not set, a value its field does not take, or what the runtime's
 * `validateConfig` refuses in the result.
 */
export function plannedConfig(file: string, change: Settings, fields: SettingFields): Table {
  const config = structuredClone(readPersonConfig(file)) as Table;
  for (const [section, values] of Object.entries(change)) {
    const known = fields[section];
    if (!known) throw unknownSetting(`$.settings.${section}`, section, Object.keys(fields));
    const table = tableAt(config, section, true)!;
    for (const key of Object.keys(known)) delete table[key];
    for (const [key, value] of Object.entries(values)) {
      const field = known[key];
      if (!field) throw unknownSetting(`$.settings.${section}.${key}`, `${section}.${key}`, Object.keys(known));
      if (value === null || value === undefined) continue;
      checkValue(`$.settings.${section}.${key}`, key, value, field);
      table[key] = value;
    }
    dropEmpty(config, section);
  }
  validateConfig(config, file);
  return config;
}

/** `_nodwyn/settings/validate`: `plannedConfig`'s verdict, as `{ ok }` or `{ ok: false, envelope }`; nothing is written. */
export function validateSettings(file: string, change: Settings, fields: SettingFields): { ok: boolean; envelope?: Envelope } {
  try {
    plannedConfig(file, change, fields);
    return { ok: true };
  } catch (error) {
    return { ok: false, envelope: toEnvelope(error, { operation: 'settings/validate' }) };
  }
}

/** Writes the planned config atomically (mode 0600; see `writePersonConfig`). */
export function writeSettings(file: string, config: Table): void {
  writePersonConfig(file, config);
}

function checkValue(where: string, key: string, value: unknown, field: SettingField): void {
  const refuse = (expected: string): never => {
    throw serverErrors.error('SETTING_INVALID', { operation: 'settings', failed_parameter: where, received_value: value, expected, remediation: `Set ${key} to ${expected}.` });
  };
  switch (field.type) {
    case 'boolean':
      if (typeof value !== 'boolean') refuse('true or false');
      return;
    case 'enum':
      if (typeof value !== 'string' || !(field.options ?? []).includes(value)) refuse(`one of ${(field.options ?? []).join(', ')}`);
      return;
    case 'string':
      if (typeof value !== 'string' || value.trim() === '' || value.length > 2048) refuse('a non-empty string (at most 2048 characters)');
      if (key === 'base_url' && !(/^https?:\/\//.test(value as string) && URL.canParse(value as string))) refuse('an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1');
      return;
    case 'integer':
    case 'number': {
      const range = `${field.min === undefined ? '' : ` from ${field.min}`}${field.max === undefined ? '' : ` to ${field.max}`}`;
      const expected = `${field.type === 'integer' ? 'a whole number' : 'a number'}${range}`;
      if (typeof value !== 'number' || !Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) refuse(expected);
      if ((field.min !== undefined && (value as number) < field.min) || (field.max !== undefined && (value as number) > field.max)) refuse(expected);
    }
  }
}

function unknownSetting(where: string, name: string, known: readonly string[]): Error {
  return serverErrors.error('SETTING_UNKNOWN', {
    operation: 'settings',
    failed_parameter: where,
    received_value: name,
    expected: known.join(', '),
    remediation: `${name} is not a setting the console manages; use one of ${known.join(', ')}, or edit config.toml by hand.`,
  });
}

/** The table at a dotted section path (`provider.openai`), made when `make`; undefined when absent or not a table. */
function tableAt(config: Table, section: string, make = false): Table | undefined {
  let table: Table = config;
  for (const part of section.split('.')) {
    let next = table[part];
    if (next === undefined && make) next = table[part] = {};
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      if (!make) return undefined;
      throw serverErrors.error('SETTING_INVALID', { operation: 'settings', failed_parameter: `$.settings.${section}`, remediation: `config.toml has ${part} as a value, not a table; fix it by hand before setting ${section}.` });
    }
    table = next as Table;
  }
  return table;
}

/** Removes the section's table, and its parents, when setting it left them empty. */
function dropEmpty(config: Table, section: string): void {
  const parts = section.split('.');
  for (let depth = parts.length; depth > 0; depth--) {
    const parent = depth === 1 ? config : tableAt(config, parts.slice(0, depth - 1).join('.'));
    const name = parts[depth - 1]!;
    const table = parent?.[name];
    if (!parent || typeof table !== 'object' || table === null || Object.keys(table).length > 0) return;
    delete parent[name];
  }
}
