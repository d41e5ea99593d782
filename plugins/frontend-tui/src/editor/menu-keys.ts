import type { Key } from 'ink';
import { applyCompletion, type CompletionItem, type CompletionQuery } from './completion.js';
import type { EditorState } from './editor-state.js';

/** An open completion menu: what it completes, its choices, the one selected. */
export interface Menu {
  readonly query: CompletionQuery;
  readonly items: readonly CompletionItem[];
  readonly selected: number;
}

/** What a key did to a menu: nothing (the editor takes it), or the menu and input after it. */
export type MenuResult =
  | { readonly handled: false }
  | { readonly handled: true; readonly menu?: Menu; readonly editor?: EditorState; readonly submit?: string };

/**
 * A key while a menu is open: Up/Down choose, Esc closes, Tab completes, Enter completes (and sends a
 * command that needs no input). Enter on a command already typed in full is the editor's: it sends.
 */
export function menuKey(menu: Menu, key: Key, editor: EditorState): MenuResult {
  if (menu.items.length === 0) return { handled: false };
  if (key.upArrow || key.downArrow) {
    const selected = (menu.selected + (key.upArrow ? -1 : 1) + menu.items.length) % menu.items.length;
    return { handled: true, menu: { ...menu, selected } };
  }
  if (key.escape) return { handled: true };
  const enter = key.return && !key.meta && !key.shift;
  if (!key.tab && !enter) return { handled: false };
  const item = menu.items[menu.selected]!;
  if (enter && editor.text.slice(menu.query.start, menu.query.end) === item.value) return { handled: false };
  const next = applyCompletion(editor, menu.query, item);
  if (enter && item.complete && menu.query.kind === 'slash') return { handled: true, editor: next, submit: item.value };
  return { handled: true, menu, editor: next };
}
