import { checkToolArgs, checkToolArgsText, TOOL_ARGS_LIMITS, type ModelStreamEvent, type ThinkingBlock } from '@nodwyn/plugin-api';
import { PLUGIN_NAME } from './errors.js';

/** A content block of the answer while it streams, by its kind. */
export type StreamBlock =
  | { readonly kind: 'text' }
  | { readonly kind: 'thinking'; text: string; signature: string }
  | { readonly kind: 'redacted_thinking'; readonly data: string }
  | { readonly kind: 'tool_use'; readonly id: string; readonly name: string; readonly input: unknown; args: string }
  /** A block nodwyn does not use (server tools, which it never offers): kept so its deltas are not taken for stray ones. */
  | { readonly kind: 'other' };

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The block a `content_block_start` opens, and what to yield at once (a text block may start with text, a tool call with its name). */
export function startBlock(contentBlock: unknown): { block: StreamBlock; events: ModelStreamEvent[] } {
  const start = record(contentBlock);
  switch (start.type) {
    case 'text': {
      const initial = text(start.text);
      return { block: { kind: 'text' }, events: initial === '' ? [] : [{ type: 'text', text: initial }] };
    }
    case 'thinking':
      return { block: { kind: 'thinking', text: text(start.thinking), signature: text(start.signature) }, events: [] };
    case 'redacted_thinking':
      return { block: { kind: 'redacted_thinking', data: text(start.data) }, events: [] };
    case 'tool_use': {
      const id = text(start.id);
      const name = text(start.name);
      return { block: { kind: 'tool_use', id, name, input: start.input, args: '' }, events: [{ type: 'tool_call_delta', callId: id, name, argsFragment: '' }] };
    }
    default:
      return { block: { kind: 'other' }, events: [] };
  }
}

/** Applies one `content_block_delta` to its block; returns what to yield, or undefined when the delta does not fit the block. */
export function applyDelta(block: StreamBlock, deltaValue: unknown): ModelStreamEvent[] | undefined {
  const delta = record(deltaValue);
  switch (delta.type) {
    case 'text_delta': {
      if (block.kind !== 'text') return undefined;
      const value = text(delta.text);
      return value === '' ? [] : [{ type: 'text', text: value }];
    }
    case 'input_json_delta': {
      if (block.kind !== 'tool_use') return undefined;
      const fragment = text(delta.partial_json);
      block.args += fragment;
      // Refused as soon as it is too large, rather than held in memory until the block stops.
      if (block.args.length > TOOL_ARGS_LIMITS.maxBytes) checkToolArgsText(block.args, { name: block.name, plugin: PLUGIN_NAME });
      return fragment === '' ? [] : [{ type: 'tool_call_delta', callId: block.id, argsFragment: fragment }];
    }
    case 'thinking_delta':
      if (block.kind !== 'thinking') return undefined;
      block.text += text(delta.thinking);
      return [];
    case 'signature_delta':
      if (block.kind !== 'thinking') return undefined;
      block.signature += text(delta.signature);
      return [];
    default:
      // citations_delta and delta types added later carry nothing nodwyn shows.
      return [];
  }
}

/**
 * A tool call's arguments once its block is complete. Arguments that are not JSON are passed on as their
 * raw text, so the guard's preflight answers the model VALIDATION_FAILED instead of running the tool with
 * `{}`. No fragments at all means the input came whole with the block's start (`{}` for a call without one).
 * Arguments past `TOOL_ARGS_LIMITS` throw a LIMIT_EXCEEDED envelope, which ends the stream after its text.
 */
function toolArgs(block: Extract<StreamBlock, { kind: 'tool_use' }>): unknown {
  const source = { name: block.name, plugin: PLUGIN_NAME };
  if (block.args === '') {
    checkToolArgs(block.input ?? {}, source);
    return block.input ?? {};
  }
  checkToolArgsText(block.args, source);
  try {
    return JSON.parse(block.args);
  } catch {
    return block.args;
  }
}

/** What a block yields when it stops: a complete thinking block, or a complete tool call. */
export function stopBlock(block: StreamBlock): ModelStreamEvent[] {
  switch (block.kind) {
    case 'thinking': {
      const thinking: ThinkingBlock = block.signature === '' ? { text: block.text } : { text: block.text, signature: block.signature };
      return [{ type: 'thinking', block: thinking }];
    }
    case 'redacted_thinking':
      return [{ type: 'thinking', block: { text: block.data, redacted: true } }];
    case 'tool_use':
      return [{ type: 'tool_call', call: { id: block.id, name: block.name, args: toolArgs(block) } }];
    default:
      return [];
  }
}
