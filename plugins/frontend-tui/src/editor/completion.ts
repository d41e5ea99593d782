import type { EditorState } from './editor-state.js';

/** What is being completed: a slash command at the start of the input, or an `@path`. */
export interface CompletionQuery {
  readonly kind: 'slash' | 'file';
  /** Where the token starts (its `/` or `@`) and ends (the cursor). */
  readonly start: number;
  readonly end: number;
  /** What follows the `/` or `@`. */
  readonly prefix: string;
}

/** One choice of a completion menu. */
export interface CompletionItem {
  /** What replaces the token. */
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
  /** Chosen with Enter, a command that needs no input runs at once (one whose input is optional: `[id]`). */
  readonly complete: boolean;
}

/** A command as completion lists it. */
export interface CommandInfo {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
}

/** The token before the cursor, if it is one to complete. */
export function completionQuery(text: string, cursor: number): CompletionQuery | undefined {
  const before = text.slice(0, cursor);
  if (/^\/[\w-]*$/.test(before)) return { kind: 'slash', start: 0, end: cursor, prefix: before.slice(1) };
  const file = /(^|\s)@([^\s@]*)$/.exec(before);
  if (file) return { kind: 'file', start: cursor - file[2]!.length - 1, end: cursor, prefix: file[2]! };
  return undefined;
}

/** The commands whose name starts with `prefix`: the TUI's own first, then the agent's. */
export function slashItems(prefix: string, commands: readonly CommandInfo[]): CompletionItem[] {
  const seen = new Set<string>();
  const items: CompletionItem[] = [];
  for (const c of commands) {
    if (seen.has(c.name) || !c.name.startsWith(prefix.toLowerCase())) continue;
    seen.add(c.name);
    items.push({ value: `/${c.name}`, label: `/${c.name}${c.hint ? ` ${c.hint}` : ''}`, detail: c.description, complete: c.hint === undefined || c.hint.startsWith('[') });
  }
  return items;
}

/** Workspace paths as completion items; a folder (ending in `/`) keeps completing. */
export function fileItems(paths: readonly string[]): CompletionItem[] {
  return paths.map((path) => ({ value: `@${path}`, label: path, complete: !path.endsWith('/') }));
}

/** The editor with the token replaced by `item` (and a space after a finished one). */
export function applyCompletion(state: EditorState, query: CompletionQuery, item: CompletionItem): EditorState {
  const trailing = item.value.endsWith('/') ? '' : ' ';
  const value = item.value + trailing;
  const text = state.text.slice(0, query.start) + value + state.text.slice(query.end);
  return { ...state, text, cursor: query.start + value.length };
}
