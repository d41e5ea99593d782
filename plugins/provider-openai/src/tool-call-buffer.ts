import { checkToolArgsText, TOOL_ARGS_LIMITS, type ModelStreamEvent, type ToolCall } from '@nodwyn/plugin-api';
import { PLUGIN_NAME } from './errors.js';

interface OpenCall {
  readonly id: string;
  name: string;
  args: string;
}

/** What one streamed piece of a tool call says; every field may be missing from a given piece. */
export interface ToolCallPiece {
  readonly id?: string;
  readonly name?: string;
  readonly fragment?: string;
}

/**
 * A call with its arguments parsed. Arguments that are not valid JSON are kept as the raw text, so the
 * guard's preflight answers the model VALIDATION_FAILED instead of the call silently getting `{}`; an
 * empty argument text (a tool without parameters) is `{}`. Arguments past `TOOL_ARGS_LIMITS` throw a
 * LIMIT_EXCEEDED envelope, which ends the stream after the text that arrived before them.
 */
export function toolCall(id: string, name: string, argsText: string): ToolCall {
  if (argsText.trim() === '') return { id, name, args: {} };
  checkToolArgsText(argsText, { name, plugin: PLUGIN_NAME });
  try {
    return { id, name, args: JSON.parse(argsText) as unknown };
  } catch {
    return { id, name, args: argsText };
  }
}

/**
 * Tool calls streamed in pieces, keyed the way the API keys them (Chat Completions: the call's `index`;
 * Responses: the output item's id). Each piece becomes a `tool_call_delta` at once; a finished call
 * becomes one `tool_call`, never twice.
 */
export class ToolCallBuffer<K> {
  private readonly open = new Map<K, OpenCall>();
  private opened = 0;
  private finished = 0;

  /** How many calls were finished. */
  get count(): number {
    return this.finished;
  }

  /** How many calls were opened, finished or not. */
  get started(): number {
    return this.opened;
  }

  /** Takes one piece: the first piece of a call opens it (announcing its name), later ones add argument text. */
  *take(key: K, piece: ToolCallPiece, fallbackId: string): Generator<ModelStreamEvent> {
    const fragment = piece.fragment ?? '';
    const known = this.open.get(key);
    if (known === undefined) {
      const call: OpenCall = { id: piece.id || fallbackId, name: piece.name ?? '', args: fragment };
      this.open.set(key, call);
      this.opened += 1;
      yield { type: 'tool_call_delta', callId: call.id, ...(call.name ? { name: call.name } : {}), argsFragment: fragment };
      return;
    }
    if (piece.name && !known.name) known.name = piece.name;
    if (fragment === '') return;
    known.args += fragment;
    // Refused as soon as it is too large, rather than held in memory until the call ends.
    if (known.args.length > TOOL_ARGS_LIMITS.maxBytes) checkToolArgsText(known.args, { name: known.name, plugin: PLUGIN_NAME });
    yield { type: 'tool_call_delta', callId: known.id, argsFragment: fragment };
  }

  /** Finishes the call under `key`; `finalArgs`, when the API sends the whole argument text at the end, wins. */
  *finish(key: K, finalArgs?: string): Generator<ModelStreamEvent> {
    const call = this.open.get(key);
    if (call === undefined) return;
    this.open.delete(key);
    this.finished += 1;
    yield { type: 'tool_call', call: toolCall(call.id, call.name, finalArgs ?? call.args) };
  }

  /** Finishes every call still open, in the order they were opened. */
  *finishAll(): Generator<ModelStreamEvent> {
    for (const key of [...this.open.keys()]) yield* this.finish(key);
  }
}
