import type { Usage } from '@nodwyn/plugin-api';
import { count, record } from './json-fields.js';

const STOP_REASONS: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  max_output_tokens: 'max_tokens',
  content_filter: 'refusal',
};

/**
 * nodwyn's stop reason for an OpenAI finish reason (chat `finish_reason`, Responses `incomplete_details.reason`):
 * stop → end_turn, tool_calls → tool_use, length / max_output_tokens → max_tokens, content_filter → refusal,
 * others as given. Some compatible servers say `stop` after tool calls, and a refusal arrives as a plain
 * `stop`: what the stream carried corrects both.
 */
export function stopReason(finish: string, seen: { toolCalls: number; refused: boolean }): string {
  const reason = STOP_REASONS[finish] ?? finish;
  if (reason !== 'end_turn') return reason;
  if (seen.toolCalls > 0) return 'tool_use';
  return seen.refused ? 'refusal' : reason;
}

function usage(total: number | undefined, output: number | undefined, cached: number | undefined): Usage | undefined {
  if (total === undefined || output === undefined) return undefined;
  const cacheRead = cached === undefined ? undefined : Math.min(cached, total);
  return { input: total - (cacheRead ?? 0), output, ...(cacheRead === undefined ? {} : { cache_read: cacheRead }) };
}

/**
 * Chat Completions usage. OpenAI counts cached tokens inside prompt_tokens, so `input` is the uncached rest
 * and `cache_read` the cached part; there is no cache-write count.
 */
export function chatUsage(raw: unknown): Usage | undefined {
  const u = record(raw);
  return usage(count(u.prompt_tokens), count(u.completion_tokens), count(record(u.prompt_tokens_details).cached_tokens));
}

/** Responses API usage: input_tokens includes input_tokens_details.cached_tokens, as in chat. */
export function responsesUsage(raw: unknown): Usage | undefined {
  const u = record(raw);
  return usage(count(u.input_tokens), count(u.output_tokens), count(record(u.input_tokens_details).cached_tokens));
}
