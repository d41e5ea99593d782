import { EnvelopeError, type ModelStreamEvent, type Usage } from '@nodwyn/plugin-api';
import { httpFailureEnvelope } from '@nodwyn/plugin-api/transport';
import { anthropicError } from './errors.js';
import { applyDelta, startBlock, stopBlock, type StreamBlock } from './stream-block.js';

/** The provider id and operation every envelope of a stream names. */
export const STREAM_CONTEXT = { provider: 'anthropic', operation: 'model.stream' } as const;

const USAGE_FIELDS = [
  ['input_tokens', 'input'],
  ['output_tokens', 'output'],
  ['cache_read_input_tokens', 'cache_read'],
  ['cache_creation_input_tokens', 'cache_write'],
] as const;

/** The API's stop reasons as nodwyn names them; reasons not listed pass through as given. */
const STOP_REASONS: Readonly<Record<string, string>> = { stop_sequence: 'end_turn' };

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * Turns the Messages API's stream events (JSON data of each SSE event, in order) into ModelStreamEvents:
 * text and tool argument fragments as they arrive, a thinking block or tool call when its block stops,
 * and at `message_stop` the usage (message_start's counts, overridden by message_delta's cumulative
 * ones) followed by the one `stop`. An `error` event is thrown as the envelope its error type maps to.
 */
export class MessageStreamReader {
  private readonly blocks = new Map<number, StreamBlock>();
  private readonly usage: Partial<Record<keyof Usage, number>> = {};
  private stopReason: string | undefined;
  private toolCalls = 0;
  /** True once `message_stop` arrived; nothing after it counts. */
  finished = false;

  /** `headers` are the streaming response's, for the request id of an error event. */
  constructor(private readonly headers?: Headers) {}

  /** The events one stream event yields. */
  push(data: unknown): ModelStreamEvent[] {
    const event = record(data);
    switch (event.type) {
      case 'message_start':
        this.addUsage(record(event.message).usage);
        return [];
      case 'content_block_start': {
        const { block, events } = startBlock(event.content_block);
        this.blocks.set(this.index(event), block);
        return events;
      }
      case 'content_block_delta': {
        const events = applyDelta(this.block(event), event.delta);
        if (events === undefined) throw this.outOfOrder(event, 'a delta of a different kind than its block');
        return events;
      }
      case 'content_block_stop': {
        const events = stopBlock(this.block(event));
        if (events.some((e) => e.type === 'tool_call')) this.toolCalls += 1;
        return events;
      }
      case 'message_delta': {
        const reason = record(event.delta).stop_reason;
        if (typeof reason === 'string') this.stopReason = reason;
        this.addUsage(event.usage);
        return [];
      }
      case 'message_stop':
        this.finished = true;
        return this.end();
      case 'error':
        throw new EnvelopeError(httpFailureEnvelope({ ...STREAM_CONTEXT, status: 200, headers: this.headers, body: data }));
      default:
        // `ping`, and event types the API may add later, carry nothing to show.
        return [];
    }
  }

  private end(): ModelStreamEvent[] {
    const reason = this.stopReason ?? (this.toolCalls > 0 ? 'tool_use' : 'end_turn');
    const stop: ModelStreamEvent = { type: 'stop', reason: STOP_REASONS[reason] ?? reason };
    if (this.usage.input === undefined && this.usage.output === undefined) return [stop];
    const { input = 0, output = 0, cache_read, cache_write } = this.usage;
    const usage: Usage = { input, output, ...(cache_read === undefined ? {} : { cache_read }), ...(cache_write === undefined ? {} : { cache_write }) };
    return [{ type: 'usage', usage }, stop];
  }

  /** message_delta's usage is cumulative, so a count it gives replaces message_start's. */
  private addUsage(value: unknown): void {
    const counts = record(value);
    for (const [wire, field] of USAGE_FIELDS) {
      const n = counts[wire];
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) this.usage[field] = n;
    }
  }

  private index(event: Record<string, unknown>): number {
    const index = event.index;
    if (typeof index === 'number' && Number.isInteger(index) && index >= 0) return index;
    throw this.outOfOrder(event, 'an event without a block index');
  }

  private block(event: Record<string, unknown>): StreamBlock {
    const block = this.blocks.get(this.index(event));
    if (block === undefined) throw this.outOfOrder(event, 'an event for a content block that never started');
    return block;
  }

  private outOfOrder(event: Record<string, unknown>, what: string): EnvelopeError {
    return anthropicError('STREAM_OUT_OF_ORDER', {
      operation: STREAM_CONTEXT.operation,
      failed_parameter: `event ${String(event.type)}`,
      received_value: event.index,
      expected: 'content_block_start before the deltas and stop of its index',
      remediation: `anthropic sent ${what}, so the answer cannot be put together. Send the message again; if it keeps happening, check that --base-url points at a server that speaks the Anthropic Messages API.`,
    });
  }
}
