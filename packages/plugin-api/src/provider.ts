import type { ToolCall, Usage } from '@nodwyn/protocol';
import type { RetryBudget } from './transport/retry-types.js';

/** A block of the model's reasoning, kept in the log; `signature` lets a provider send it back verbatim. */
export interface ThinkingBlock {
  readonly text: string;
  readonly signature?: string;
  /** Reasoning the provider returned encrypted (Anthropic's `redacted_thinking`): opaque, sent back as is. */
  readonly redacted?: boolean;
}

/** A message of the window sent to a model. */
export type ModelMessage =
  | {
      readonly role: 'user';
      readonly text: string;
      /** True for nodwyn's own instructions (a plan request, a plan verdict), which are not the person's ask. */
      readonly note?: boolean;
    }
  | {
      readonly role: 'assistant';
      readonly text: string;
      readonly toolCalls: readonly ToolCall[];
      /** Reasoning blocks of this message, in order, for providers that need them back (Anthropic tool use). */
      readonly thinking?: readonly ThinkingBlock[];
    }
  | { readonly role: 'tool'; readonly callId: string; readonly name: string; readonly text: string; readonly isError: boolean };

/** A tool offered to the model. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's input. */
  readonly inputSchema: Record<string, unknown>;
}

/**
 * The kernel's guarded fetch for one model call: every request it sends crosses the egress edge (the
 * guard's egress stages check it against the binding table), and `{{secret:NAME}}` handles in its headers
 * are replaced by their values only at the last hop, after that check. Redirects are never followed to
 * another origin. Providers hand it to their SDK (`fetch` option) and never call the global `fetch`.
 */
export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** One model call. */
export interface ModelRequest {
  readonly session: string;
  /**
   * The agent's brief, sent the way the API wants a system prompt (Anthropic `system`, OpenAI a
   * `system` message or `instructions`). The floor derives it from the session's `context.added` events
   * (docs/architecture.md §10), so it is the same for every call of a session; absent when none is logged.
   */
  readonly system?: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolSpec[];
  /** The guarded fetch for this call (see `GuardedFetch`). */
  readonly fetch: GuardedFetch;
  /** What is left of the turn's retry budget; each retry of a failed request takes one. */
  readonly retries: RetryBudget;
}

/** What a provider streams back. A finished call ends with exactly one `stop`. */
export type ModelStreamEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly block: ThinkingBlock }
  | { readonly type: 'tool_call_delta'; readonly callId: string; readonly name?: string; readonly argsFragment: string }
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'usage'; readonly usage: Usage }
  /** A request failed and will be sent again after `delayMs` (shown to front ends, never logged as content). */
  | { readonly type: 'retry'; readonly attempt: number; readonly delayMs: number; readonly reason: string }
  | { readonly type: 'stop'; readonly reason: string };

/** USD per million tokens. `cache_read`/`cache_write` default to `input` when a model has no cache price. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cache_read?: number;
  readonly cache_write?: number;
}

/** A model a provider knows, for `nodwyn models` and for cost. */
export interface ModelInfo {
  readonly id: string;
  readonly price?: ModelPrice;
  /** Context window in tokens, when known. */
  readonly contextTokens?: number;
}

/** A configured model. Failures are thrown as `EnvelopeError`s. */
export interface ModelProvider {
  readonly id: string;
  readonly model?: string;
  /** The model's price (the plugin's table, extended by `[prices]` in config); without it, cost is not computed. */
  readonly price?: ModelPrice;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

/** Options a person gives a provider on the command line or in config (`--model`, `--base-url`, `--script`, `--session`). */
export type ProviderOptions = Readonly<Record<string, string | undefined>>;

/** Registered by a plugin; creates providers from options. */
export interface ProviderFactory {
  readonly id: string;
  readonly description: string;
  /** Models this provider offers out of the box, with prices; `nodwyn models` lists them. */
  readonly models?: readonly ModelInfo[];
  create(options: ProviderOptions): ModelProvider | Promise<ModelProvider>;
}
