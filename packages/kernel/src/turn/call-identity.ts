import type { ToolCall } from '@nodwyn/protocol';
import canonicalize from 'canonicalize';

/** Name and canonical arguments: two calls with the same key do the same thing (the progress guard counts them). */
export function callKey(call: ToolCall): string {
  return `${call.name}\u0000${canonicalize(call.args ?? null) ?? ''}`;
}

/** True when two lists hold the same calls, ids included, in the same order. */
export function sameCalls(a: readonly ToolCall[], b: readonly ToolCall[]): boolean {
  return a.length === b.length && a.every((c, i) => c.id === b[i]!.id && callKey(c) === callKey(b[i]!));
}
