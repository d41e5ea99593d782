import type { EgressPosition, EgressPositionKind } from '@nodwyn/plugin-api';

/** A position a binding allows: `header:NAME`, `query:NAME`, `body:$.path` (`body` is the whole body) or `basic`. */
export interface PositionSpec {
  readonly kind: EgressPositionKind;
  /** Header name (compared case-insensitively), query parameter, body JSON path; empty for `basic`. */
  readonly name: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The JSON path of the whole body: a raw (string) body, or a JSON body that is one scalar. */
export const WHOLE_BODY = '$';

/** Parses `header:Authorization`, `query:key`, `body:$.token`, `body` or `basic`; `{ error }` when malformed. */
export function parsePosition(text: string): PositionSpec | { readonly error: string } {
  const trimmed = text.trim();
  if (trimmed === 'basic') return { kind: 'basic', name: '' };
  if (trimmed === 'body') return { kind: 'body', name: WHOLE_BODY };
  const colon = trimmed.indexOf(':');
  const kind = trimmed.slice(0, colon);
  const name = trimmed.slice(colon + 1);
  if (colon > 0 && name.length > 0) {
    if (kind === 'header' && HEADER_NAME.test(name)) return { kind, name };
    if (kind === 'query') return { kind, name };
    if (kind === 'body' && name.startsWith('$')) return { kind, name };
  }
  return { error: 'header:NAME, query:NAME, body:$.json.path, body or basic' };
}

/** The text of a position, as bindings.toml and `nodwyn bind add --position` spell it. */
export function formatPosition(position: { readonly kind: EgressPositionKind; readonly name: string }): string {
  if (position.kind === 'basic') return 'basic';
  if (position.kind === 'body' && position.name === WHOLE_BODY) return 'body';
  return `${position.kind}:${position.name}`;
}

/**
 * True when a bound position admits a request's position. Header names are case-insensitive (HTTP says
 * so); query names and body paths are exact; `basic` admits both the user and the password.
 */
export function positionMatches(spec: PositionSpec, position: EgressPosition): boolean {
  if (spec.kind !== position.kind) return false;
  if (spec.kind === 'basic') return true;
  if (spec.kind === 'header') return spec.name.toLowerCase() === position.name.toLowerCase();
  return spec.name === position.name;
}

/**
 * Splits a `--position` list on the commas that start a new position, so a body path holding a comma
 * (`body:$["a,b"]`) survives.
 */
export function splitPositions(text: string): string[] {
  return text.split(/,(?=\s*(?:header:|query:|body\b|basic\b))/).map((part) => part.trim()).filter((part) => part.length > 0);
}
