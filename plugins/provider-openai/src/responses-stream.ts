import type { ModelStreamEvent } from '@nodwyn/plugin-api';
import { parseEventJson, type SseEvent } from '@nodwyn/plugin-api/transport';
import { list, record, text } from './json-fields.js';
import { responsesUsage, stopReason } from './stream-outcome.js';
import { streamErrorEvent, streamIncomplete, type StreamContext } from './stream-failures.js';
import { ToolCallBuffer } from './tool-call-buffer.js';

type Fields = Record<string, unknown>;

/** One Responses API answer as its events arrive. */
class ResponsesAnswer {
  private readonly calls = new ToolCallBuffer<string>();
  /** Output item ids by output_index, for events that name only the index. */
  private readonly items = new Map<number, string>();
  private readonly reasoning = new Map<string, string>();
  private refused = false;

  *take(type: string, data: Fields): Generator<ModelStreamEvent> {
    if (type === 'response.output_text.delta' || type === 'response.refusal.delta') {
      const delta = text(data.delta);
      if (type === 'response.refusal.delta') this.refused = true;
      if (delta) yield { type: 'text', text: delta };
    } else if (type === 'response.reasoning_summary_text.delta' || type === 'response.reasoning_text.delta') {
      const key = this.key(data);
      this.reasoning.set(key, (this.reasoning.get(key) ?? '') + (text(data.delta) ?? ''));
    } else if (type === 'response.output_item.added') {
      yield* this.added(data);
    } else if (type === 'response.function_call_arguments.delta') {
      yield* this.calls.take(this.key(data), { fragment: text(data.delta) }, this.key(data));
    } else if (type === 'response.output_item.done') {
      yield* this.done(data);
    }
  }

  /** The output item an event is about: its `item_id`, else the item added at its `output_index`. */
  private key(data: Fields): string {
    const index = typeof data.output_index === 'number' ? data.output_index : -1;
    return text(data.item_id) ?? this.items.get(index) ?? `output_${index}`;
  }

  private *added(data: Fields): Generator<ModelStreamEvent> {
    const item = record(data.item);
    const id = text(item.id) ?? `output_${String(data.output_index)}`;
    if (typeof data.output_index === 'number') this.items.set(data.output_index, id);
    if (item.type !== 'function_call') return;
    yield* this.calls.take(id, { id: text(item.call_id), name: text(item.name), fragment: text(item.arguments) }, id);
  }

  private *done(data: Fields): Generator<ModelStreamEvent> {
    const item = record(data.item);
    const id = text(item.id) ?? this.key(data);
    if (item.type === 'function_call') {
      // A server that sends the call only whole, in output_item.done, still gets it opened first.
      yield* this.calls.take(id, { id: text(item.call_id), name: text(item.name) }, id);
      yield* this.calls.finish(id, text(item.arguments));
    } else if (item.type === 'reasoning') {
      const streamed = this.reasoning.get(id) ?? '';
      const summary = list(item.summary).map((part) => text(record(part).text) ?? '').join('\n\n');
      const block = streamed || summary;
      if (block) yield { type: 'thinking', block: { text: block } };
    }
  }

  /** `response.completed`, or `response.incomplete` with the reason it stopped early. */
  *end(response: Fields, incomplete: boolean): Generator<ModelStreamEvent> {
    yield* this.calls.finishAll();
    const usage = responsesUsage(response.usage);
    if (usage) yield { type: 'usage', usage };
    const finish = incomplete ? (text(record(response.incomplete_details).reason) ?? 'incomplete') : 'stop';
    yield { type: 'stop', reason: stopReason(finish, { toolCalls: this.calls.count, refused: this.refused }) };
  }
}

/**
 * Decodes a Responses API stream: output_text deltas as `text`, function call argument deltas (keyed by
 * item id, else output_index) as `tool_call_delta` and each call as `tool_call` at its output_item.done,
 * reasoning summaries as `thinking` blocks, then `usage` and `stop` from response.completed (or
 * response.incomplete). `error` and `response.failed` are the envelope their code names; a body that ends
 * before the final event is STREAM_INCOMPLETE.
 */
export async function* responsesStream(events: AsyncIterable<SseEvent>, context: StreamContext): AsyncGenerator<ModelStreamEvent> {
  const answer = new ResponsesAnswer();
  for await (const event of events) {
    const data = record(parseEventJson(event, context));
    const type = text(data.type) ?? event.event;
    if (type === 'error') throw streamErrorEvent(data, context);
    if (type === 'response.failed') throw streamErrorEvent({ error: record(data.response).error }, context);
    if (type === 'response.completed' || type === 'response.incomplete') {
      yield* answer.end(record(data.response), type === 'response.incomplete');
      return;
    }
    yield* answer.take(type, data);
  }
  throw streamIncomplete(context, 'response.completed');
}
