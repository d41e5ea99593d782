import { envelope, type ModelMessage, type ThinkingBlock } from '@nodwyn/plugin-api';
import type { Envelope, LogEvent, ToolCall } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';

/** Rough token estimate (4 characters a token) used to keep the window within its budget. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function messageTokens(message: ModelMessage): number {
  if (message.role === 'assistant') return estimateTokens(message.text) + estimateTokens(JSON.stringify(message.toolCalls));
  return estimateTokens(message.text);
}

/** How the plan events read to the model: instructions from nodwyn, not from the person. */
const PLAN_NOTES: Readonly<Record<string, (p: Record<string, unknown>) => string>> = {
  'plan.requested': (p) =>
    `[nodwyn] A plan is required before acting (${String(p.reason)}). Reply with a short numbered plan of what you will do, and make no tool calls in that reply; it will be reviewed first.`,
  'plan.revise': (p) =>
    `[nodwyn] The plan was not approved${typeof p.score === 'number' ? ` (score ${p.score})` : ''}.${p.feedback ? ` Feedback: ${String(p.feedback)}` : ''} Reply with a revised plan and no tool calls.`,
  'plan.approved': () => '[nodwyn] The plan was approved. Carry it out now.',
};

/** The envelope of a call the log holds no outcome for (the process died while it ran). */
export function interruptedEnvelope(call: ToolCall): Envelope {
  return envelope({
    category: 'OUTCOME_UNKNOWN',
    code: KernelCodes.TOOL_INTERRUPTED,
    operation: call.name,
    retryable: 'after_remediation',
    remediation: 'The run stopped while this call was in progress; check its effects before repeating it.',
  });
}

function interruptedResult(call: ToolCall): ModelMessage {
  return { role: 'tool', callId: call.id, name: call.name, text: JSON.stringify(interruptedEnvelope(call)), isError: true };
}

/**
 * Derives the model-facing messages from a session's events. Only outcomes of the model's own calls
 * enter the window (host calls made by primitives do not), and a call left without an outcome gets an
 * `OUTCOME_UNKNOWN` result, so every call the model made has exactly one answer.
 */
export function messagesFromEvents(events: readonly LogEvent[]): ModelMessage[] {
  return scanEvents(events).messages;
}

/** The window's messages, and the calls that were left without an outcome. */
export function scanEvents(events: readonly LogEvent[]): { messages: ModelMessage[]; interrupted: ToolCall[] } {
  const messages: ModelMessage[] = [];
  const interrupted: ToolCall[] = [];
  let open = new Map<string, ToolCall>();
  const closeOpen = (): void => {
    for (const call of open.values()) {
      messages.push(interruptedResult(call));
      interrupted.push(call);
    }
    open = new Map();
  };
  for (const event of events) {
    const p = event.payload as Record<string, unknown>;
    if (event.type === 'message.user') {
      closeOpen();
      messages.push({ role: 'user', text: String(p.text ?? '') });
    } else if (event.type === 'message.assistant') {
      closeOpen();
      const toolCalls = (p.tool_calls as ToolCall[] | undefined) ?? [];
      const thinking = Array.isArray(p.thinking) ? (p.thinking as ThinkingBlock[]) : [];
      messages.push({ role: 'assistant', text: String(p.text ?? ''), toolCalls, ...(thinking.length > 0 ? { thinking } : {}) });
      open = new Map(toolCalls.map((c) => [c.id, c]));
    } else if (event.type in PLAN_NOTES) {
      closeOpen();
      messages.push({ role: 'user', text: PLAN_NOTES[event.type]!(p), note: true });
    } else if (event.type.startsWith('tool.') && p.origin !== 'host' && open.has(String(p.call_id))) {
      const call = open.get(String(p.call_id))!;
      open.delete(call.id);
      const isError = event.type !== 'tool.completed';
      const text = isError ? JSON.stringify(p.envelope) : String(p.content ?? '');
      messages.push({ role: 'tool', callId: call.id, name: call.name, text, isError });
    }
  }
  closeOpen();
  return { messages, interrupted };
}

/**
 * Keeps the newest messages that fit `budget` tokens. It cuts only at a user message, so a tool result is
 * never separated from the call it answers; the last user message and what follows are always kept.
 */
export function fitWindow(messages: readonly ModelMessage[], budget: number): ModelMessage[] {
  let total = messages.reduce((sum, m) => sum + messageTokens(m), 0);
  let start = 0;
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  while (total > budget && start < lastUser) {
    let next = start + 1;
    while (next < lastUser && messages[next]!.role !== 'user') next++;
    for (let i = start; i < next; i++) total -= messageTokens(messages[i]!);
    start = next;
  }
  return messages.slice(start);
}
