import type { TaintTracker } from '@nodwyn/plugin-api';
import { WITHHELD_NOTICE } from '../guard/strikes.js';
import type { StreamedMessage } from './model-call.js';

/**
 * The classes of remembered secrets found anywhere in what the model wrote: its text, every tool call's
 * name and arguments, its thinking. Each part is checked on its own, so no window spans two of them.
 */
export function secretsInOutput(tracker: TaintTracker | undefined, session: string, streamed: StreamedMessage): readonly string[] {
  if (!tracker) return [];
  const parts = [
    streamed.text,
    ...streamed.toolCalls.flatMap((c) => [c.name, JSON.stringify(c.args ?? {})]),
    ...streamed.thinking.map((b) => b.text),
  ];
  return [...new Set(parts.flatMap((part) => tracker.matches(session, part)))].sort();
}

/**
 * What is kept of a model message that held a remembered secret: the fixed notice for its text, and its
 * calls (so each still gets its one result) with their arguments dropped and a name the model did not
 * choose unless it is a tool's. Nothing of the model's own strings survives, so the window cannot show
 * which of them matched.
 */
export function withheldMessage(streamed: StreamedMessage, isTool: (name: string) => boolean): StreamedMessage {
  return {
    ...streamed,
    text: WITHHELD_NOTICE,
    toolCalls: streamed.toolCalls.map((c) => ({ id: c.id, name: isTool(c.name) ? c.name : 'unknown_tool', args: {} })),
    thinking: [],
  };
}
