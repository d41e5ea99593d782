import type { ModelMessage, ModelRequest, ToolSpec } from '@nodwyn/plugin-api';
import type { FunctionTool, ResponseCreateParamsStreaming, ResponseInputItem } from 'openai/resources/responses/responses';
import { argumentsText, type RequestShape } from './chat-request.js';

function inputItems(message: ModelMessage): ResponseInputItem[] {
  if (message.role === 'user') return [{ role: 'user', content: message.text }];
  if (message.role === 'tool') return [{ type: 'function_call_output', call_id: message.callId, output: message.text }];
  const text: ResponseInputItem[] = message.text === '' ? [] : [{ role: 'assistant', content: message.text }];
  return [...text, ...message.toolCalls.map((call): ResponseInputItem => ({ type: 'function_call', call_id: call.id, name: call.name, arguments: argumentsText(call) }))];
}

// `strict` is off: nodwyn's tool schemas are plain JSON Schema, not the subset strict mode accepts.
function functionTool(tool: ToolSpec): FunctionTool {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: false };
}

/**
 * The Responses API request: the window as input items (messages, an assistant's calls as `function_call`
 * items and results as `function_call_output` items with the same call id), the brief as `instructions`
 * (the API's system prompt; OpenAI caches a repeated prefix by itself), function tools, and
 * `store: false`, since nodwyn's log is the record and OpenAI need not keep one.
 */
export function responsesBody(request: ModelRequest, shape: RequestShape): ResponseCreateParamsStreaming {
  return {
    model: shape.model,
    stream: true,
    store: false,
    ...(request.system ? { instructions: request.system } : {}),
    input: request.messages.flatMap(inputItems),
    ...(request.tools.length > 0 ? { tools: request.tools.map(functionTool) } : {}),
    ...(shape.maxTokens === undefined ? {} : { max_output_tokens: shape.maxTokens }),
  };
}
