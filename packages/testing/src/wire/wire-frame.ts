import type { WireEvent } from './wire-codec.js';

/**
 * The text of one SSE event. A malformed event keeps its `event:` line but carries only the first half of
 * its data, the way a broken proxy or a truncated write leaves it: never valid JSON.
 */
export function frameEvent(event: WireEvent, malformed = false): string {
  const data = malformed ? event.data.slice(0, Math.max(1, Math.floor(event.data.length / 2))) : event.data;
  return event.event === undefined ? `data: ${data}\n\n` : `event: ${event.event}\ndata: ${data}\n\n`;
}
