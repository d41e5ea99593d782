import type { Envelope } from '@nodwyn/protocol';
import { EnvelopeError, type PrimitiveCallContext, type ToolResult } from '@nodwyn/plugin-api';
import { COLLECT_DEFAULTS, collectStream, resumableStream, type OpenOptions, type OperationClient, type StreamItem } from '@nodwyn/plugin-api/transport';
import type { MappedOperation, StreamBounds } from './operation-map.js';

/** Silence after which a streamed operation's connection is idle and resumed (STREAM_IDLE when it cannot be). */
export const STREAM_IDLE_DEFAULT_MS = 30_000;

/** The bounds of a streamed operation's tool: `x-agent.stream` over the defaults. */
export function streamBounds(bounds: StreamBounds): Required<StreamBounds> {
  return { idleMs: STREAM_IDLE_DEFAULT_MS, ...COLLECT_DEFAULTS, ...bounds };
}

/** One collected event as the model sees it. */
interface ShownEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: unknown;
}

/**
 * Calls a streamed operation (docs/openapi.md, "Streamed operations"): opens it on the runtime, reads it
 * with `resumableStream` (Last-Event-ID, at most 3 reconnects, replays skipped, the idle timeout) and
 * collects it within the operation's budgets. A read resumes freely; a mutation resumes only with replay
 * protection (its key goes out again), otherwise a drop is OUTCOME_UNKNOWN. The content is every event
 * once, in order; a failure is one envelope that says how many events had arrived.
 */
export async function callStreamed(client: OperationClient, op: MappedOperation, args: unknown, call: PrimitiveCallContext, options: () => OpenOptions): Promise<ToolResult> {
  const { descriptor } = op;
  const bounds = streamBounds(op.stream ?? {});
  const policy = descriptor.idempotency?.policy ?? 'none';
  const open = async (lastEventId: string | undefined, signal: AbortSignal): Promise<Response> => {
    const opened = await client.open(descriptor.id, args, { ...options(), signal, ...(lastEventId === undefined ? {} : { lastEventId }) });
    if (!opened.ok) throw new EnvelopeError(opened.envelope);
    return opened.response;
  };
  const collected = await collectStream(
    (signal) =>
      resumableStream({
        open,
        safeToRepeat: descriptor.tier === 'read' || policy !== 'none',
        mutation: descriptor.tier !== 'read',
        idleTimeoutMs: bounds.idleMs,
        signal: AbortSignal.any([signal, call.signal]),
        operation: descriptor.id,
        ...(descriptor.stream?.done === undefined ? {} : { done: descriptor.stream.done }),
      }),
    {
      maxEvents: bounds.maxEvents,
      maxBytes: bounds.maxBytes,
      maxMs: bounds.maxMs,
      operation: descriptor.id,
      onEvent: (_item, progress) => call.progress?.({ progress: progress.events }),
    },
  );
  if (!collected.ok) throw new EnvelopeError(withArrived(collected.envelope, collected.partial));
  const shown = { events: collected.events.map(shownEvent), reconnects: collected.reconnects, ...(collected.truncated ? { truncated: true } : {}) };
  return { content: JSON.stringify(shown), data: { events: collected.events.length, reconnects: collected.reconnects, truncated: collected.truncated } };
}

function shownEvent(item: StreamItem): ShownEvent {
  return { ...(item.id === undefined ? {} : { id: item.id }), event: item.event, data: item.value };
}

/** The failure's envelope, saying what had arrived: a tool's failure answers no events. */
function withArrived(envelope: Envelope, partial: readonly StreamItem[]): Envelope {
  if (partial.length === 0) return envelope;
  const last = partial.at(-1)?.id;
  const arrived = `${partial.length} event${partial.length === 1 ? '' : 's'} had arrived${last === undefined ? '' : ` (the last with id ${last})`}; a failed call answers none of them.`;
  return { ...envelope, remediation: `${envelope.remediation} ${arrived}` };
}
