import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { LogEvent } from '@nodwyn/protocol';
import { findJsonProblem, LONE_SURROGATE } from './json-value.js';

/** An event before its hash is known: everything the hash covers. */
export type UnhashedEvent = Omit<LogEvent, 'hash'>;

/**
 * RFC 8785 canonical JSON (JCS) of `value`: sorted keys, no whitespace, ECMAScript number form. Two
 * values that are equal as JSON give the same text, whatever their key order, which is what lets a hash
 * of the text stand for the value. Throws a `TypeError` naming the spot for anything JSON cannot carry
 * unchanged (see `findJsonProblem`), because the `canonicalize` package would otherwise emit invalid text
 * for a function or silently call `toJSON`.
 */
export function canonicalJson(value: unknown): string {
  const problem = findJsonProblem(value);
  if (problem) throw new TypeError(`Not canonical JSON: ${problem.path} is ${problem.reason}.`);
  return canonicalizeChecked(value);
}

/**
 * `canonicalize` for a value already known to be plain JSON (checked, or parsed from JSON text). The
 * log's hot path calls this to skip a second walk.
 */
export function canonicalizeChecked(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('Not canonical JSON: the value has no JSON form.');
  return text;
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `parts`, concatenated. */
export function sha256Hex(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part, 'utf8');
  return hash.digest('hex');
}

/**
 * The text an event's hash is computed over: `prev ‖ canonical-json(event without hash)`. `prev` is a
 * fixed-width hex string, so the concatenation is unambiguous. Only the seven event fields are taken, so
 * passing a whole `LogEvent` (with its `hash`) gives the same result.
 */
export function eventPreimage(event: UnhashedEvent): string {
  const { session, seq, ts, type, actor, payload, prev } = event;
  return prev + canonicalizeChecked({ session, seq, ts, type, actor, payload, prev });
}

/**
 * `hash = sha256hex(prev ‖ canonical-json(event without hash))` (docs/architecture.md §3). Throws a
 * `TypeError` when the payload is not plain JSON, since such a payload has no stable hash.
 */
export function hashEvent(event: UnhashedEvent): string {
  const problem = findJsonProblem(event.payload);
  if (problem) throw new TypeError(`Cannot hash the event: the payload at ${problem.path} is ${problem.reason}.`);
  return sha256Hex(eventPreimage(event));
}

/**
 * `hashEvent` for an event whose payload is already canonical text: the log's hot path, on append and
 * on verify. It writes the JCS object by hand (keys in JCS order: actor, payload, prev, seq, session,
 * ts, type) instead of re-canonicalizing the payload inside the event, which halves an append's cost.
 * A property test holds it equal to `eventPreimage`.
 */
export function hashEventText(event: Omit<UnhashedEvent, 'payload'>, payloadText: string): string {
  const { session, seq, ts, type, actor, prev } = event;
  if (!Number.isSafeInteger(seq)) throw new TypeError('Cannot hash the event: seq is not an integer.');
  const text = `{"actor":${jcsString(actor)},"payload":${payloadText},"prev":${jcsString(prev)},"seq":${seq},"session":${jcsString(session)},"ts":${jcsString(ts)},"type":${jcsString(type)}}`;
  return sha256Hex(prev, text);
}

// JCS strings are ECMAScript JSON.stringify strings, except that a lone surrogate is an error.
function jcsString(value: string): string {
  if (typeof value !== 'string' || LONE_SURROGATE.test(value)) throw new TypeError('Cannot hash the event: a field is not a well-formed string.');
  return JSON.stringify(value);
}
