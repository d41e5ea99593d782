import type { Settings } from '@nodwyn/protocol';

/** What one settable key takes (`_nodwyn/settings/get`'s `fields`). */
export interface SettingField {
  readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'enum';
  readonly description: string;
  readonly options?: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

/** A form's raw value of one key: its text (or, for a boolean, whether it is checked). */
export type RawValue = string | boolean;

/**
 * The settings a form holds, typed by their fields: an empty text leaves the key unset, numbers are read
 * as numbers (an unreadable one is kept as text, for the daemon's validation to name it).
 */
export function settingsFromForm(fields: Readonly<Record<string, Readonly<Record<string, SettingField>>>>, raw: (section: string, key: string) => RawValue | undefined): Settings {
  const settings: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(fields)) {
    const values: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(keys)) {
      const value = raw(section, key);
      if (value === undefined) continue;
      if (field.type === 'boolean') {
        values[key] = value === true;
        continue;
      }
      const text = String(value).trim();
      if (text === '') continue;
      if (field.type === 'number' || field.type === 'integer') {
        const number = Number(text);
        values[key] = Number.isFinite(number) ? number : text;
      } else values[key] = text;
    }
    settings[section] = values;
  }
  return settings;
}

/** A setting's value as a form shows it: text, or checked for a boolean. */
export function formValue(field: SettingField, value: unknown): RawValue {
  if (field.type === 'boolean') return value === true;
  return value === undefined || value === null ? '' : String(value);
}

/** A section's values in a fixed key order, for comparing. */
function canonical(values: Readonly<Record<string, unknown>> | undefined): string {
  return JSON.stringify(Object.entries(values ?? {}).filter(([, v]) => v !== undefined && v !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The sections of `after` that differ from `before`, only those: a section the person did not touch is
 * not sent, so a value the form cannot offer (a provider the list leaves out) is never checked or lost.
 */
export function changedSections(before: Settings, after: Settings): Settings {
  return Object.fromEntries(Object.entries(after).filter(([section, values]) => canonical(values) !== canonical(before[section])));
}
