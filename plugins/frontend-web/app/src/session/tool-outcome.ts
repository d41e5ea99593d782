import { envelopeOf } from '../shown-error.js';
import type { ToolOutcome, UpdateOf } from './session-items.js';

/** What a finished `tool_call_update` carries: its text, the diff of an edit, and the envelope of a failure. */
export function outcomeFromUpdate(update: UpdateOf<'tool_call_update'>): ToolOutcome {
  let text: string | undefined;
  let diff: ToolOutcome['diff'];
  for (const block of update.content ?? []) {
    if (block.type === 'diff') diff = { path: block.path, ...(typeof block.oldText === 'string' ? { oldText: block.oldText } : {}), newText: block.newText };
    else if (block.type === 'content' && block.content.type === 'text') text = (text === undefined ? '' : `${text}\n`) + block.content.text;
  }
  const envelope = envelopeOf(update.rawOutput) ?? (update.status === 'failed' ? envelopeOf(text) : undefined);
  if (envelope) return { envelope };
  return { ...(text !== undefined ? { text } : {}), ...(diff ? { diff } : {}) };
}

/**
 * What a logged tool outcome carries, with the diff an edit's arguments describe (`edit_file`'s old and
 * new strings, `write_file`'s content), as the agent shows it live.
 */
export function outcomeFromLog(payload: Record<string, unknown>, args: unknown): ToolOutcome {
  const envelope = envelopeOf(payload.envelope);
  if (envelope) return { envelope };
  const text = typeof payload.content === 'string' ? payload.content : undefined;
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const path = typeof a.path === 'string' ? a.path : undefined;
  let diff: ToolOutcome['diff'];
  if (path && typeof a.old_string === 'string' && typeof a.new_string === 'string') diff = { path, oldText: a.old_string, newText: a.new_string };
  else if (path && payload.name === 'write_file' && typeof a.content === 'string') diff = { path, newText: a.content };
  return { ...(text !== undefined ? { text } : {}), ...(diff ? { diff } : {}) };
}
