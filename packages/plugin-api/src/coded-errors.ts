import type { Category, Envelope } from '@nodwyn/protocol';
import { envelope, EnvelopeError, type EnvelopeInit } from './envelope.js';

/** What a caller states about a failure; the category and plugin come from the code table. */
export type CodedInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

/** Envelope builders bound to one plugin's code table. */
export interface CodedErrors<Code extends string> {
  /** The envelope for `code`, with its category and the plugin filled in. */
  envelope(code: Code, init: CodedInit): Envelope;
  /** The error carrying that envelope; `cause` keeps the foreign error it wraps. */
  error(code: Code, init: CodedInit, cause?: unknown): EnvelopeError;
}

/**
 * Binds a plugin's table of codes (code → the one category it always travels under) to envelope
 * builders, so a code can never be raised under two categories by two different paths.
 */
export function codedErrors<const Table extends Record<string, Category>>(
  plugin: string,
  table: Table,
  /** Fields every envelope starts from (an `operation`), which a caller's fields override. */
  defaults: Partial<CodedInit> = {},
): CodedErrors<keyof Table & string> {
  const build = (code: keyof Table & string, init: CodedInit): Envelope =>
    envelope({ ...defaults, ...init, code, category: table[code] as Category, plugin } as EnvelopeInit);
  return {
    envelope: build,
    error: (code, init, cause) => new EnvelopeError(build(code, init), cause === undefined ? undefined : { cause }),
  };
}
