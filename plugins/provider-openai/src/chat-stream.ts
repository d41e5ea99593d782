import type { ModelStreamEvent, Usage } from '@nodwyn/plugin-api';
import { parseEventJson, type SseEvent } from '@nodwyn/plugin-api/transport';
import { list, record, text } from './json-fields.js';
import { chatUsage, stopReason } from './stream-outcome.js';
import { streamErrorEvent, streamIncomplete, type StreamContext } from './stream-failures.js';
import { ToolCallBuffer } from './tool-call-buffer.js';

/** One Chat Completions answer as its chunks arrive. */
class ChatAnswer {
  readonly calls = new ToolCallBuffer<number>();
  private reasoning = '';
  private refused = false;
  private finish: string | undefined;
  private usage: Usage | undefined;

  /** Finished without `[DONE]`: some servers end the body after the finish_reason and the usage chunk. */
  get complete(): boolean {
    return this.finish !== undefined && this.usage !== undefined;
  }

  *take(chunk: Record<string, unknown>): Generator<ModelStreamEvent> {
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chatUsage(chunk.usage) ?? this.usage;
    const choices = list(chunk.choices).map(record);
    const choice = choices.find((c) => c.index === 0 || c.index === undefined);
    if (choice === undefined) return;
    const delta = record(choice.delta);
    // vLLM, llama.cpp and DeepSeek send `reasoning_content`; Ollama and OpenRouter send `reasoning`.
    this.reasoning += text(delta.reasoning_content) ?? text(delta.reasoning) ?? '';
    for (const [field, refusal] of [['content', false], ['refusal', true]] as const) {
      const value = text(delta[field]);
      if (!value) continue;
      yield* this.thinking();
      if (refusal) this.refused = true;
      yield { type: 'text', text: value };
    }
    yield* this.toolCalls(list(delta.tool_calls));
    const finish = text(choice.finish_reason);
    if (finish) {
      this.finish = finish;
      yield* this.thinking();
      yield* this.calls.finishAll();
    }
  }

  /** Tool call pieces are keyed by `index`; a server that omits it sends each call whole, so each is a new call. */
  private *toolCalls(pieces: readonly unknown[]): Generator<ModelStreamEvent> {
    if (pieces.length > 0) yield* this.thinking();
    for (const raw of pieces) {
      const piece = record(raw);
      const fn = record(piece.function);
      const index = typeof piece.index === 'number' ? piece.index : this.calls.started;
      yield* this.calls.take(index, { id: text(piece.id), name: text(fn.name), fragment: text(fn.arguments) }, `call_${index}`);
    }
  }

  /** The reasoning so far as one block, once the answer itself starts. */
  private *thinking(): Generator<ModelStreamEvent> {
    if (this.reasoning === '') return;
    yield { type: 'thinking', block: { text: this.reasoning } };
    this.reasoning = '';
  }

  *end(): Generator<ModelStreamEvent> {
    yield* this.thinking();
    yield* this.calls.finishAll();
    if (this.usage) yield { type: 'usage', usage: this.usage };
    yield { type: 'stop', reason: stopReason(this.finish ?? 'stop', { toolCalls: this.calls.count, refused: this.refused }) };
  }
}

/**
 * Decodes a Chat Completions stream: content deltas as `text`, tool call pieces (by index) as
 * `tool_call_delta` and each finished call as `tool_call` once the finish_reason arrives, reasoning as one
 * `thinking` block, then `usage` (from `stream_options.include_usage`) and `stop`. The answer is finished by
 * `data: [DONE]`, or by a body that ends after the finish_reason and the usage; anything shorter is
 * STREAM_INCOMPLETE, and an error chunk is the envelope its type or code names.
 */
export async function* chatStream(events: AsyncIterable<SseEvent>, context: StreamContext): AsyncGenerator<ModelStreamEvent> {
  const answer = new ChatAnswer();
  for await (const event of events) {
    if (event.data.trim() === '[DONE]') {
      yield* answer.end();
      return;
    }
    const chunk = record(parseEventJson(event, context));
    if (event.event === 'error' || (chunk.error !== undefined && chunk.error !== null)) throw streamErrorEvent(chunk, context);
    yield* answer.take(chunk);
  }
  if (!answer.complete) throw streamIncomplete(context, 'data: [DONE]');
  yield* answer.end();
}
