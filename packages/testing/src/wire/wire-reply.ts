/** The wire formats a loopback server can speak: Anthropic Messages, OpenAI Chat Completions, OpenAI Responses. */
export type WireDialect = 'anthropic' | 'openai-chat' | 'openai-responses';

/** Token counts of a scripted reply; `input` is the uncached input, as a provider reports it to nodwyn. */
export interface WireUsage {
  readonly input: number;
  readonly output: number;
  readonly cache_read?: number;
  readonly cache_write?: number;
}

/** A tool call streamed in pieces, so providers meet fragmented arguments as they do in the wild. */
export interface WireToolCall {
  readonly id: string;
  readonly name: string;
  /** The argument JSON cut in pieces; joined, they are the whole argument text. */
  readonly argsFragments: readonly string[];
}

/**
 * Ways a stream goes wrong on a real network. Event numbers count every SSE event of the reply from 0
 * (pings and OpenAI's `[DONE]` included).
 */
export interface WireFaults {
  /** Write this many events, then drop the connection without ending the body. */
  readonly resetAfterEvents?: number;
  /** Write this many events and half of the next one's bytes, then end the body cleanly. */
  readonly cutMidEventAfter?: number;
  /** The data of this event is not JSON. */
  readonly malformedAt?: number;
}

/** A successful streaming answer. */
export interface WireStreamReply {
  readonly kind: 'stream';
  /** Text deltas, in order. */
  readonly text?: readonly string[];
  readonly toolCalls?: readonly WireToolCall[];
  /** Reasoning deltas, streamed before the text (Anthropic thinking, Responses reasoning summary, chat `reasoning_content`). */
  readonly thinking?: readonly string[];
  readonly usage?: WireUsage;
  /** Default: `tool_use` when there are tool calls, else `end_turn`. */
  readonly stop?: 'end_turn' | 'tool_use' | 'max_tokens';
  /** Pause between events, in ms, for slow streams and cancellation. */
  readonly delayMs?: number;
  /**
   * Each `{{sent}}` in an event is replaced, as the event is written, by the server's clock in ms
   * (`performance.timeOrigin + performance.now()`): a client in the same process measures each delta's latency.
   */
  readonly stampSent?: boolean;
  readonly faults?: WireFaults;
}

/** An HTTP error answer with the provider's own error body. */
export interface WireErrorReply {
  readonly kind: 'error';
  readonly status: number;
  /** Anthropic: `error.type`; OpenAI: `error.code` (the precise reason, e.g. `context_length_exceeded`). Defaults follow the status. */
  readonly errorType?: string;
  readonly message?: string;
  /** Extra response headers, e.g. `retry-after`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The connection is dropped before any byte of the answer. */
export interface WireResetReply {
  readonly kind: 'reset';
}

/** One scripted answer; a wire server answers each request with the next one. */
export type WireReply = WireStreamReply | WireErrorReply | WireResetReply;
