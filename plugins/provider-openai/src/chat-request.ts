import type { ModelMessage, ModelRequest, ToolCall, ToolSpec } from '@nodwyn/plugin-api';
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

/** How a request is shaped for one server. */
export interface RequestShape {
  readonly model: string;
  readonly maxTokens?: number;
  /**
   * OpenAI's own API wants `max_completion_tokens` (its reasoning models refuse `max_tokens`); the
   * compatible servers know `max_tokens`.
   */
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
}

/** The argument text of a call as the API wants it back: raw text a model sent stays as it was. */
export function argumentsText(call: ToolCall): string {
  return typeof call.args === 'string' ? call.args : (JSON.stringify(call.args ?? {}) ?? '{}');
}

function chatMessage(message: ModelMessage): ChatCompletionMessageParam {
  if (message.role === 'user') return { role: 'user', content: message.text };
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.callId, content: message.text };
  if (message.toolCalls.length === 0) return { role: 'assistant', content: message.text };
  return {
    role: 'assistant',
    content: message.text === '' ? null : message.text,
    tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: argumentsText(call) } })),
  };
}

function chatTool(tool: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}

/**
 * The Chat Completions request: the window as messages (an assistant's tool calls with their ids, then one
 * `tool` message per result carrying the same id), tools as function tools with their JSON Schema, and
 * `stream_options.include_usage` so the stream ends with the usage. The brief is a `system` message first
 * (OpenAI's own API takes it as `developer` for its reasoning models, and compatible servers know only
 * `system`). Reasoning is not sent back: the API has no place for it.
 */
export function chatBody(request: ModelRequest, shape: RequestShape): ChatCompletionCreateParamsStreaming {
  return {
    model: shape.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [...(request.system ? [{ role: 'system' as const, content: request.system }] : []), ...request.messages.map(chatMessage)],
    ...(request.tools.length > 0 ? { tools: request.tools.map(chatTool) } : {}),
    ...(shape.maxTokens === undefined ? {} : { [shape.maxTokensField]: shape.maxTokens }),
  };
}
