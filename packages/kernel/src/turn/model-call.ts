import {
  checkToolArgs,
  costUsd,
  EnvelopeError,
  toEnvelope,
  TOOL_ARGS_LIMITS,
  type AssistantMessage,
  type ModelProvider,
  type ModelRequest,
  type ThinkingBlock,
  type ToolArgsLimits,
} from '@nodwyn/plugin-api';
import type { FrontendEvent, ToolCall, Usage } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';
import { StreamRedactor } from './stream-redactor.js';

/** What arrived of a model call, finished or not. */
export interface StreamedMessage extends AssistantMessage {
  readonly complete: boolean;
  readonly error?: EnvelopeError;
  readonly thinking: readonly ThinkingBlock[];
}

/** How one model call's output is bounded and shown. */
export interface StreamOptions {
  /** Text on its way to a person, through the text layers; default: as is. */
  readonly shown?: (text: string) => string;
  /** Depth and size every tool call's arguments must keep to; default `TOOL_ARGS_LIMITS`. */
  readonly argsLimits?: ToolArgsLimits;
}

/**
 * Streams one model call, forwarding deltas to the front end as they arrive, each through `shown` (the text
 * layers) first: a model can repeat a secret its endpoint was sent, and a person's screen is no place for
 * it. Never throws: a broken stream comes back incomplete with its envelope, so the caller can log what
 * arrived before failing the turn.
 */
export async function streamModel(
  provider: ModelProvider,
  request: ModelRequest,
  signal: AbortSignal,
  onEvent: (event: FrontendEvent) => void,
  options: StreamOptions = {},
): Promise<StreamedMessage> {
  const deltas = new ShownDeltas(request.session, onEvent, options.shown ?? ((text) => text));
  const streamed = await streamInto(provider, request, signal, deltas, options.argsLimits ?? TOOL_ARGS_LIMITS);
  try {
    deltas.flush();
    return streamed;
  } catch (error) {
    // The text layers failed on the held text: it is not shown, and the call fails closed.
    const env = toEnvelope(error, { operation: 'model.stream', code: KernelCodes.LOG_FILTER_FAILED });
    return { ...streamed, toolCalls: [], stopReason: 'interrupted', complete: false, error: streamed.error ?? new EnvelopeError(env, { cause: error }) };
  }
}

async function streamInto(provider: ModelProvider, request: ModelRequest, signal: AbortSignal, deltas: ShownDeltas, argsLimits: ToolArgsLimits): Promise<StreamedMessage> {
  const onEvent = deltas.onEvent;
  let text = '';
  const toolCalls: ToolCall[] = [];
  const thinking: ThinkingBlock[] = [];
  let usage: Usage | undefined;
  let stopReason = 'end_turn';
  try {
    for await (const event of provider.stream(request, signal)) {
      if (signal.aborted) throw signal.reason;
      if (event.type === 'text') {
        text += event.text;
        deltas.text(event.text);
      } else if (event.type === 'tool_call_delta') {
        deltas.toolCall(event.callId, event.name, event.argsFragment);
      } else if (event.type === 'thinking') {
        thinking.push(event.block);
        deltas.thought(event.block);
      } else if (event.type === 'retry') {
        onEvent({ type: 'model.retry', session: request.session, attempt: event.attempt, delay_ms: Math.round(event.delayMs), reason: deltas.shown(event.reason) });
      } else if (event.type === 'tool_call') {
        // Whatever the provider: arguments too deep or too large for the log end the call here, so the text
        // that streamed before them is still logged.
        checkToolArgs(event.call.args, { name: String(event.call.name), plugin: provider.id }, argsLimits);
        toolCalls.push(uniqueCall(event.call, toolCalls));
      } else if (event.type === 'usage') {
        usage = event.usage;
      } else if (event.type === 'stop') {
        stopReason = event.reason;
      }
    }
    return { text, toolCalls, stopReason, usage, thinking, complete: true };
  } catch (error) {
    const reason = signal.aborted ? signal.reason : error;
    const env = toEnvelope(reason, { operation: 'model.stream', plugin: provider.id, code: KernelCodes.PROVIDER_FAILED });
    return { text, toolCalls: [], stopReason: 'interrupted', usage, thinking, complete: false, error: new EnvelopeError(env, { cause: error }) };
  }
}

/** What one call cost in USD, when the provider knows the model's price and reported usage. */
export function costOf(streamed: StreamedMessage, provider: ModelProvider): number | undefined {
  return streamed.usage && provider.price ? costUsd(streamed.usage, provider.price) : undefined;
}

/** The `message.assistant` payload of what arrived: a broken stream keeps its text, never half a tool call. */
export function assistantPayload(streamed: StreamedMessage, provider: ModelProvider): Record<string, unknown> {
  const cost = costOf(streamed, provider);
  return {
    text: streamed.text,
    tool_calls: streamed.toolCalls,
    stop_reason: streamed.stopReason,
    provider: provider.id,
    ...(provider.model ? { model: provider.model } : {}),
    ...(streamed.usage ? { usage: streamed.usage } : {}),
    ...(cost !== undefined ? { cost_usd: cost } : {}),
    ...(streamed.thinking.length > 0 ? { thinking: streamed.thinking } : {}),
  };
}

// A provider that repeats or omits ids must not make two calls share one result.
function uniqueCall(call: ToolCall, seen: readonly ToolCall[]): ToolCall {
  const base = typeof call.id === 'string' && call.id.length > 0 ? call.id : `call_${seen.length}`;
  const id = seen.some((c) => c.id === base) ? `${base}_${seen.length}` : base;
  return { id, name: String(call.name), args: call.args ?? {} };
}

/** The deltas of one call on their way to front ends: text and each call's arguments held and redacted apart. */
class ShownDeltas {
  readonly #text: StreamRedactor;
  readonly #calls = new Map<string, StreamRedactor>();

  constructor(
    private readonly session: string,
    readonly onEvent: (event: FrontendEvent) => void,
    readonly shown: (text: string) => string,
  ) {
    this.#text = new StreamRedactor(shown);
  }

  text(delta: string): void {
    this.#emitText(this.#text.push(delta));
  }

  toolCall(callId: string, name: string | undefined, fragment: string): void {
    let redactor = this.#calls.get(callId);
    if (redactor === undefined) {
      redactor = new StreamRedactor(this.shown);
      this.#calls.set(callId, redactor);
    }
    // The name is announced at once (front ends show which tool is coming); the arguments when safe.
    const ready = redactor.push(fragment);
    if (name !== undefined || ready !== '') this.onEvent({ type: 'delta.tool_call', session: this.session, call_id: callId, name, args_fragment: ready });
  }

  /** A finished reasoning block, shown through the text layers whole; an encrypted (redacted) one is not shown. */
  thought(block: ThinkingBlock): void {
    if (block.redacted === true || typeof block.text !== 'string' || block.text === '') return;
    const text = this.shown(block.text);
    if (text !== '') this.onEvent({ type: 'delta.thought', session: this.session, text });
  }

  flush(): void {
    this.#emitText(this.#text.flush());
    for (const [callId, redactor] of this.#calls) {
      const rest = redactor.flush();
      if (rest !== '') this.onEvent({ type: 'delta.tool_call', session: this.session, call_id: callId, args_fragment: rest });
    }
  }

  #emitText(text: string): void {
    if (text !== '') this.onEvent({ type: 'delta.text', session: this.session, text });
  }
}
