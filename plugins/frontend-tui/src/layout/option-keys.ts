import type { Question } from '../state/tui-state.js';

type Option = Question['options'][number];

/** The key that answers each kind of option: one key, always the same. */
const KIND_KEYS: Readonly<Record<string, string>> = { allow_once: 'y', allow_always: 'a', reject_once: 'n', reject_always: 'r' };

/** Each option with its key: `y`/`a`/`n`/`r` by kind, digits for anything else. */
export function optionKeys(options: readonly Option[]): { key: string; option: Option }[] {
  const used = new Set<string>();
  return options.map((option, i) => {
    let key = KIND_KEYS[option.kind] ?? String(i + 1);
    if (used.has(key)) key = String(i + 1);
    used.add(key);
    return { key, option };
  });
}
