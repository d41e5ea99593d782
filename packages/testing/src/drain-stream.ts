import type { ModelStreamEvent } from '@nodwyn/plugin-api';

/** What a stream produced before it ended or threw. */
export interface StreamOutcome {
  readonly events: ModelStreamEvent[];
  readonly error?: unknown;
}

/** Drains a model stream, keeping what arrived and the failure, if any; `onEvent` sees each event as it arrives. */
export async function drainStream(stream: AsyncIterable<ModelStreamEvent>, onEvent?: (event: ModelStreamEvent) => void): Promise<StreamOutcome> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) {
      events.push(event);
      onEvent?.(event);
    }
    return { events };
  } catch (error) {
    return { events, error };
  }
}
