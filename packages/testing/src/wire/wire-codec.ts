import type { WireErrorReply, WireStreamReply, WireUsage } from './wire-reply.js';

/** One SSE event as the server writes it. */
export interface WireEvent {
  /** The `event:` field; absent for OpenAI chat, which sends bare `data:` lines. */
  readonly event?: string;
  readonly data: string;
  /** A text delta: the suite aims its faults just after content by these. */
  readonly text?: boolean;
}

/** What an encoder knows of the request it answers. */
export interface WireContext {
  /** The id the answer carries in its request-id header (and Anthropic error bodies). */
  readonly requestId: string;
  /** The request's `model`, echoed back as the providers do. */
  readonly model: string;
  /** The parsed request body. */
  readonly body: unknown;
  /** Unix seconds for `created` fields. */
  readonly created: number;
}

/** How one dialect is spoken: where it listens and how its answers are encoded. */
export interface WireCodec {
  /** Path of the streaming endpoint. */
  readonly path: string;
  /** What the base URL handed to a client ends with: OpenAI SDKs take `…/v1`, Anthropic's adds `/v1` itself. */
  readonly basePath: string;
  /** Header that carries the request id. */
  readonly requestIdHeader: string;
  /** Request ids in the provider's own shape. */
  requestId(n: number): string;
  streamEvents(reply: WireStreamReply, context: WireContext): WireEvent[];
  /** The JSON body of an HTTP error answer. */
  errorBody(reply: WireErrorReply, context: WireContext): unknown;
}

/** Usage of a reply, with counts a reply did not state filled in. */
export function usageOf(reply: WireStreamReply): Required<WireUsage> {
  const u = reply.usage;
  return { input: u?.input ?? 12, output: u?.output ?? 8, cache_read: u?.cache_read ?? 0, cache_write: u?.cache_write ?? 0 };
}

/** Why a reply stops: what it says, else `tool_use` when it calls tools, else `end_turn`. */
export function stopOf(reply: WireStreamReply): 'end_turn' | 'tool_use' | 'max_tokens' {
  return reply.stop ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn');
}

/** The `model` a request asked for, echoed back like the providers do. */
export function modelOf(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' && model !== '' ? model : 'wire-model';
}

/** A JSON event, named or (OpenAI chat) not. */
export function jsonEvent(event: string | undefined, data: unknown): WireEvent {
  return event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };
}

/**
 * A fast encoder for the many events that differ only in a few values (the text deltas: the bench streams
 * 100k of them): the JSON around the holes is built once, each value is spliced in as JSON. `shape` gets
 * one marker per hole and must place each marker once, in order.
 */
export function jsonTemplate(arity: number, shape: (...holes: string[]) => unknown): (...values: unknown[]) => string {
  const holes = Array.from({ length: arity }, (_, i) => `\u0000hole${i}\u0000`);
  const parts: string[] = [];
  let rest = JSON.stringify(shape(...holes));
  for (const hole of holes) {
    const marker = JSON.stringify(hole);
    const at = rest.indexOf(marker);
    if (at < 0) throw new Error(`jsonTemplate: the shape does not place hole ${parts.length} in order`);
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + marker.length);
  }
  parts.push(rest);
  return (...values) => values.reduce<string>((out, value, i) => out + JSON.stringify(value) + parts[i + 1], parts[0]!);
}
