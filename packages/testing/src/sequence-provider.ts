import type { ModelProvider, ModelRequest, ModelStreamEvent } from '@nodwyn/plugin-api';

/** One canned model reply: text and/or tool calls. */
export interface SequenceReply {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly args: unknown }[];
}

/**
 * A provider that plays its replies strictly in order, one per call, and keeps every request. Unlike
 * `listProvider` it does not restart at a user message: the kernel's plan notes read as user messages,
 * and a plan flow is still one prompt's run.
 */
export function sequenceProvider(replies: readonly SequenceReply[]): ModelProvider & { readonly requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'sequence',
    requests,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      const index = requests.push(request) - 1;
      const reply = replies[index];
      if (!reply) throw new Error(`the test gave ${replies.length} replies; reply ${index + 1} was asked for`);
      if (reply.text) yield { type: 'text', text: reply.text };
      const calls = (reply.toolCalls ?? []).map((c, i) => ({ id: `call_${index}_${i}`, name: c.name, args: c.args }));
      for (const call of calls) yield { type: 'tool_call', call };
      yield { type: 'stop', reason: calls.length > 0 ? 'tool_use' : 'end_turn' };
    },
  };
}
