import { sanitize } from '../terminal/sanitize.js';

/** Longest title shown; a long shell command is cut. */
const TITLE_MAX = 120;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * A tool call's one-line title from its name and arguments, the way the agent titles its `tool_call`
 * updates: the name and its key argument (`read_file src/a.ts`, `shell git status`). Used for calls
 * shown from the log, where no update carried a title.
 */
export function toolTitle(name: string, args: unknown): string {
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const request = text(a.method) && text(a.url) ? `${String(a.method)} ${String(a.url)}` : undefined;
  const key = text(a.command) ?? request ?? text(a.path) ?? text(a.pattern) ?? text(a.name);
  const line = sanitize(key ? `${name} ${key}` : name)
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}
