import { EnvelopeError, type ModelProvider, type ModelRequest, type ModelStreamEvent } from '@nodwyn/plugin-api';
import type { ToolCall } from '@nodwyn/protocol';
import { TestingCodes } from './errors.js';

/** One canned model reply: text and/or tool calls. */
export interface CannedReply {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly args: unknown }[];
}

/**
 * A provider for kernel and loop tests that answers from a list, one reply per call, counting the
 * assistant messages since the last user message (so it continues correctly on a rebuilt window). It
 * also records each request it saw, so tests can check what the model was shown.
 */
export function listProvider(replies: readonly CannedReply[]): ModelProvider & { readonly requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'list',
    requests,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
      requests.push(request);
      const lastUser = request.messages.findLastIndex((m) => m.role === 'user' && m.note !== true);
      const index = request.messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
      const reply = replies[index];
      if (!reply) {
        throw new EnvelopeError({ category: 'PRECONDITION_FAILED', code: TestingCodes.LIST_EXHAUSTED, remediation: `The test gave ${replies.length} replies; reply ${index + 1} was asked for.` });
      }
      if (signal.aborted) throw new EnvelopeError({ category: 'CANCELLED', code: TestingCodes.LIST_CANCELLED, remediation: 'The call was cancelled.' });
      if (reply.text) yield { type: 'text', text: reply.text };
      const calls: ToolCall[] = (reply.toolCalls ?? []).map((c, i) => ({ id: `call_${index}_${i}`, name: c.name, args: c.args }));
      for (const call of calls) yield { type: 'tool_call', call };
      yield { type: 'usage', usage: { input: 10, output: 5 } };
      yield { type: 'stop', reason: calls.length > 0 ? 'tool_use' : 'end_turn' };
    },
  };
}
