import type { ModelMessage, WindowEntry } from '@nodwyn/plugin-api';
import type { LogEvent, ToolCall } from '@nodwyn/protocol';
import { messageTokens, WindowScanner } from './window-scanner.js';

export { estimateTokens, interruptedEnvelope, PLAN_NOTES } from './window-notes.js';


/**
 * Derives the model-facing messages from a session's events (see `WindowScanner`): every call the model
 * made has exactly one answer, an `OUTCOME_UNKNOWN` one when the log holds no outcome.
 */
export function messagesFromEvents(events: readonly LogEvent[]): ModelMessage[] {
  return scanEvents(events).messages;
}

/** The window's messages, and the calls that were left without an outcome. */
export function scanEvents(events: readonly LogEvent[]): { messages: ModelMessage[]; interrupted: ToolCall[] } {
  const scanner = new WindowScanner();
  for (const event of events) scanner.push(event);
  scanner.close();
  return { messages: scanner.entries.map((e) => e.message), interrupted: scanner.interrupted };
}

/**
 * Keeps the newest messages that fit `budget` tokens. It cuts only at a user message, so a tool result is
 * never separated from the call it answers; the last user message and what follows are always kept.
 */
export function fitWindow(messages: readonly ModelMessage[], budget: number): ModelMessage[] {
  const entries = messages.map((message) => ({ message, tokens: messageTokens(message) }));
  return messages.slice(fitStart(entries, budget));
}

/** Where `fitWindow` cuts `entries`: the oldest user message whose suffix fits, or the last user message. */
export function fitStart(entries: readonly Pick<WindowEntry, 'message' | 'tokens'>[], budget: number): number {
  let total = entries.reduce((sum, e) => sum + e.tokens, 0);
  let start = 0;
  const lastUser = entries.findLastIndex((e) => e.message.role === 'user');
  while (total > budget && start < lastUser) {
    let next = start + 1;
    while (next < lastUser && entries[next]!.message.role !== 'user') next++;
    for (let i = start; i < next; i++) total -= entries[i]!.tokens;
    start = next;
  }
  return start;
}
