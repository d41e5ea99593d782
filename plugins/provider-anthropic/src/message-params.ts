import type { ContentBlockParam, MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ModelMessage, ThinkingBlock, ToolCall, ToolSpec } from '@nodwyn/plugin-api';

/** How the window is written for one request. */
export interface WindowOptions {
  /**
   * Whether this request runs with extended thinking. Only then are earlier thinking blocks sent back: the
   * API requires them (signed, unchanged) before the tool use of a thinking turn, and without thinking
   * they would only be more input.
   */
  readonly thinking: boolean;
}

type Role = 'user' | 'assistant';

/**
 * Signed thinking goes back verbatim; redacted thinking goes back as its opaque data. A block without a
 * signature did not come from this API (or was cut) and would be refused, so it stays in the log only.
 */
function thinkingParams(blocks: readonly ThinkingBlock[]): ContentBlockParam[] {
  return blocks.flatMap((block): ContentBlockParam[] => {
    if (block.redacted) return [{ type: 'redacted_thinking', data: block.text }];
    return block.signature ? [{ type: 'thinking', thinking: block.text, signature: block.signature }] : [];
  });
}

/**
 * A logged call's arguments as the `input` object the API expects. A call whose arguments were not JSON
 * was logged with their raw text (the guard answered it with VALIDATION_FAILED); it goes back as `{}`,
 * and its tool result tells the model what was wrong.
 */
function toolInput(args: unknown): Record<string, unknown> {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function toolUseParam(call: ToolCall): ContentBlockParam {
  return { type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.args) };
}

function toolResultParam(message: Extract<ModelMessage, { role: 'tool' }>): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: message.callId, is_error: message.isError, ...(message.text === '' ? {} : { content: message.text }) };
}

/** One message's role and blocks; empty text is left out, since the API refuses empty text blocks. */
function blocksOf(message: ModelMessage, options: WindowOptions): { role: Role; blocks: ContentBlockParam[] } {
  if (message.role === 'tool') return { role: 'user', blocks: [toolResultParam(message)] };
  const text: ContentBlockParam[] = message.text === '' ? [] : [{ type: 'text', text: message.text }];
  if (message.role === 'user') return { role: 'user', blocks: text };
  const thinking = options.thinking ? thinkingParams(message.thinking ?? []) : [];
  return { role: 'assistant', blocks: [...thinking, ...text, ...message.toolCalls.map(toolUseParam)] };
}

/**
 * The window as Messages API messages. Tool results become `tool_result` blocks of a user message, and
 * consecutive messages of one role are merged, as the API requires: all results of one assistant turn's
 * parallel calls sit in the one user message that follows it. Messages with no content are dropped.
 */
export function messageParams(messages: readonly ModelMessage[], options: WindowOptions): MessageParam[] {
  const out: { role: Role; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    const { role, blocks } = blocksOf(message, options);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

/** Tools as the API declares them: name, description and the JSON Schema of the input. */
export function toolParams(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema as Tool['input_schema'] }));
}
