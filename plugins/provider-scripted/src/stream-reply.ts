import type { EnvelopeError, ModelMessage, ModelRequest, ModelStreamEvent, ToolCall, Usage } from '@nodwyn/plugin-api';
import { cancelledError } from './errors.js';
import { replyIndex } from './reply-index.js';

/** A reply ready to stream: placeholders filled, tool call ids assigned. */
export interface PlannedReply {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage?: Usage;
  readonly stopReason: string;
  /** Why the reply's tool calls cannot be sent: the stream fails with it after the text. */
  readonly refused?: EnvelopeError;
}

// Small enough that a short argument object still arrives in more than one delta, as from a real model.
const ARGS_FRAGMENT_CHARS = 32;

/**
 * Streams the reply `plan` picks for this request's reply index. Cancellation is checked before the
 * reply is chosen and before every event, so an aborted call never yields another event.
 */
export async function* streamReply(
  request: ModelRequest,
  signal: AbortSignal,
  plan: (index: number) => PlannedReply,
): AsyncGenerator<ModelStreamEvent> {
  throwIfAborted(signal);
  const reply = plan(replyIndex(request.messages));
  if (reply.refused) {
    for (const text of words(reply.text)) {
      throwIfAborted(signal);
      yield { type: 'text', text };
    }
    throw reply.refused;
  }
  for (const event of replyEvents(reply, request)) {
    throwIfAborted(signal);
    yield event;
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw cancelledError();
}

function replyEvents(reply: PlannedReply, request: ModelRequest): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = words(reply.text).map((text) => ({ type: 'text', text }));
  for (const call of reply.toolCalls) {
    chunks(argsJson(call.args), ARGS_FRAGMENT_CHARS).forEach((argsFragment, i) => {
      events.push(
        i === 0
          ? { type: 'tool_call_delta', callId: call.id, name: call.name, argsFragment }
          : { type: 'tool_call_delta', callId: call.id, argsFragment },
      );
    });
    events.push({ type: 'tool_call', call });
  }
  events.push({ type: 'usage', usage: reply.usage ?? estimateUsage(reply, request.messages) });
  events.push({ type: 'stop', reason: reply.stopReason });
  return events;
}

/** Splits text into words, each keeping the whitespace after it, so the chunks join back to the text. */
function words(text: string): string[] {
  return text.split(/(?<=\s)(?=\S)/).filter((word) => word !== '');
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function argsJson(args: unknown): string {
  return JSON.stringify(args) ?? 'null';
}

/** A rough count (four characters a token) so budgets see plausible numbers when a reply states none. */
function estimateUsage(reply: PlannedReply, messages: readonly ModelMessage[]): Usage {
  const callChars = (calls: readonly ToolCall[]) => calls.reduce((n, call) => n + call.name.length + argsJson(call.args).length, 0);
  const input = messages.reduce((n, message) => n + message.text.length + (message.role === 'assistant' ? callChars(message.toolCalls) : 0), 0);
  const output = reply.text.length + callChars(reply.toolCalls);
  return { input: Math.ceil(input / 4), output: Math.ceil(output / 4) };
}
