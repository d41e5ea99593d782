import type { Settings } from '@nodwyn/protocol';
import { parse, stringify, type TomlTable } from 'smol-toml';
import { desktopErrors } from '../errors.js';

/**
 * config.toml with the settable sections replaced by `settings` (a key left out of a given section is
 * unset, as `_nodwyn/settings/set` reads it); every other section is kept. A `null` value unsets its key:
 * TOML has no null.
 */
export function mergeSettings(current: string | undefined, settings: Settings): string {
  let table: TomlTable;
  try {
    table = current === undefined ? {} : parse(current);
  } catch (error) {
    throw desktopErrors.error(
      'DESKTOP_CONFIG_INVALID',
      {
        operation: 'desktop.settings.save',
        remediation: `config.toml does not parse (${(error as Error).message.split('\n')[0]}); fix it by hand before saving settings from the app.`,
      },
      error,
    );
  }
  for (const [section, values] of Object.entries(settings)) {
    table[section] = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== undefined)) as TomlTable;
  }
  return stringify(table);
}
