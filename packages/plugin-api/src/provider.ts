import type { ToolCall, Usage } from '@nodwyn/protocol';

/** A message of the window sent to a model. */
export type ModelMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly callId: string; readonly name: string; readonly text: string; readonly isError: boolean };

/** A tool offered to the model. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's input. */
  readonly inputSchema: Record<string, unknown>;
}

/** One model call. */
export interface ModelRequest {
  readonly session: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolSpec[];
}

/** What a provider streams back. A finished call ends with exactly one `stop`. */
export type ModelStreamEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_call_delta'; readonly callId: string; readonly name?: string; readonly argsFragment: string }
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'usage'; readonly usage: Usage }
  | { readonly type: 'stop'; readonly reason: string };

/** A configured model. Failures are thrown as `EnvelopeError`s. */
export interface ModelProvider {
  readonly id: string;
  readonly model?: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent>;
}

/** Options a person gives a provider on the command line or in config (`--model`, `--script`, `--session`). */
export type ProviderOptions = Readonly<Record<string, string | undefined>>;

/** Registered by a plugin; creates providers from options. */
export interface ProviderFactory {
  readonly id: string;
  readonly description: string;
  create(options: ProviderOptions): ModelProvider | Promise<ModelProvider>;
}
