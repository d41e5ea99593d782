import { sample } from 'openapi-sampler';
import { deref, isObject, type JsonObject } from '../schema-refs.js';

/** What the mock answers for an operation: status, content type and how to make the body. */
export interface Answer {
  readonly status: number;
  /** `application/json`, `text/event-stream`, another type, or undefined for no body. */
  readonly contentType?: string;
  readonly media?: JsonObject;
}

/** The operation's success answer: its lowest 2xx (or `2XX`, or `default`) response and first media type. */
export function answerOf(document: JsonObject, operation: JsonObject): Answer {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const codes = Object.keys(responses).filter((code) => /^2(\d\d|XX)$/i.test(code)).sort();
  const code = codes[0] ?? ('default' in responses ? 'default' : undefined);
  const status = code === undefined || code === 'default' || /X/i.test(code) ? 200 : Number(code);
  const response = code === undefined ? undefined : deref(document, responses[code]);
  const content = isObject(response) && isObject(response.content) ? response.content : {};
  const types = Object.keys(content);
  const contentType = types.find((t) => t === 'text/event-stream') ?? types.find((t) => /json/i.test(t)) ?? types[0];
  if (contentType === undefined || status === 204) return { status };
  const media = deref(document, content[contentType]);
  return { status, contentType, ...(isObject(media) ? { media } : {}) };
}

/**
 * A generated value for a media type: its `x-mock-sequence` entry for the n-th call (the last repeats),
 * else its example, else the first of its examples, else a sample of its schema (openapi-sampler).
 */
export function generated(document: JsonObject, media: JsonObject | undefined, call: number): unknown {
  if (!media) return undefined;
  const sequence = media['x-mock-sequence'];
  if (Array.isArray(sequence) && sequence.length > 0) return sequence[Math.min(call, sequence.length - 1)];
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = deref(document, Object.values(media.examples)[0]);
    if (isObject(first) && 'value' in first) return first.value;
  }
  if (media.schema === undefined) return undefined;
  return sample(media.schema as never, { skipReadOnly: false, skipWriteOnly: true, quiet: true, maxSampleDepth: 8 }, document);
}
