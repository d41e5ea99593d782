import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { Envelope } from '@nodwyn/protocol';
import { isAbsolute, resolve } from 'node:path';

/** How a tool call looks to an ACP client: a title, its kind, and the files it touches. */
export interface ToolView {
  readonly title: string;
  readonly kind: ToolKind;
  readonly locations: ToolCallLocation[];
}

/** Longest title shown; a long shell command is cut. */
const TITLE_MAX = 120;

function record(args: unknown): Record<string, unknown> {
  return typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function cut(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ').trim();
  return oneLine.length > TITLE_MAX ? `${oneLine.slice(0, TITLE_MAX - 1)}…` : oneLine;
}

/** The absolute path a tool's `path` argument names, inside `workspace`. */
function absolute(path: string, workspace: string): string {
  return isAbsolute(path) ? path : resolve(workspace, path);
}

/**
 * The view of one call from its name, declared kind and arguments: the title names the key argument
 * (`read_file src/a.ts`, `shell git status`, `http_request GET https://…`), and a `path` argument is a
 * location, so an editor can follow the agent.
 */
export function toolView(name: string, kind: ToolKind, args: unknown, workspace: string): ToolView {
  const a = record(args);
  const path = text(a.path);
  const key = text(a.command) ?? (text(a.method) && text(a.url) ? `${String(a.method)} ${String(a.url)}` : undefined) ?? path ?? text(a.pattern) ?? text(a.name);
  const line = typeof a.start_line === 'number' ? { line: a.start_line } : {};
  return {
    title: cut(key ? `${name} ${key}` : name),
    kind,
    locations: path ? [{ path: absolute(path, workspace), ...line }] : [],
  };
}

/**
 * The content an ACP client shows for a finished call: the result text (or the envelope, unchanged, as
 * JSON), and for a successful edit the diff its arguments describe (`edit_file`'s old and new strings,
 * `write_file`'s new content), both derived from the log alone so a replay shows the same.
 */
export function resultContent(kind: ToolKind, args: unknown, workspace: string, outcome: { content?: string; envelope?: Envelope }): ToolCallContent[] {
  const shown = outcome.envelope ? JSON.stringify(outcome.envelope) : (outcome.content ?? '');
  const blocks: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text: shown } }];
  const diff = outcome.envelope ? undefined : editDiff(kind, args, workspace);
  return diff ? [diff, ...blocks] : blocks;
}

function editDiff(kind: ToolKind, args: unknown, workspace: string): ToolCallContent | undefined {
  if (kind !== 'edit') return undefined;
  const a = record(args);
  const path = text(a.path);
  if (!path) return undefined;
  if (typeof a.new_string === 'string' && typeof a.old_string === 'string') {
    return { type: 'diff', path: absolute(path, workspace), oldText: a.old_string, newText: a.new_string };
  }
  if (typeof a.content === 'string') return { type: 'diff', path: absolute(path, workspace), oldText: null, newText: a.content };
  return undefined;
}
