import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { WireEvent } from './wire-codec.js';
import { frameEvent } from './wire-frame.js';
import type { WireStreamReply } from './wire-reply.js';
import type { WireExchange } from './wire-request-record.js';

/** Without a delay, events are written in batches of about this many characters (the bench streams 100k deltas). */
const BATCH_CHARS = 16_384;

/**
 * Writes a stream answer as fast as the socket takes it, or one event at a time with `delayMs` between
 * events, and plays the reply's faults: a drop after N events (the socket closes once those bytes are out,
 * so the client receives them and then sees the connection end mid-body), a cut in the middle of an event
 * (half its bytes, then a clean end), or a malformed event. Stops as soon as the connection is gone.
 */
export async function writeWireStream(res: ServerResponse, exchange: WireExchange, reply: WireStreamReply, events: readonly WireEvent[]): Promise<void> {
  const gone = once(res, 'close').then(() => undefined);
  const { resetAfterEvents, cutMidEventAfter, malformedAt } = reply.faults ?? {};
  let batch = '';
  const flush = async (): Promise<void> => {
    const ok = batch === '' || res.write(batch);
    batch = '';
    if (!ok) await Promise.race([once(res, 'drain'), gone]);
  };
  for (let i = 0; i <= events.length && !res.destroyed; i += 1) {
    if (i === resetAfterEvents) {
      await flush();
      exchange.droppedByServer = true;
      res.socket?.destroySoon();
      return;
    }
    const event = events[i];
    if (event === undefined) break;
    const framed = frameEvent(event, i === malformedAt);
    const frame = reply.stampSent ? framed.replaceAll('{{sent}}', (performance.timeOrigin + performance.now()).toFixed(3)) : framed;
    if (i === cutMidEventAfter) {
      const bytes = Buffer.from(frame, 'utf8');
      res.end(Buffer.concat([Buffer.from(batch, 'utf8'), bytes.subarray(0, Math.floor(bytes.length / 2))]));
      return;
    }
    batch += frame;
    if (reply.delayMs && i < events.length - 1) {
      await flush();
      await Promise.race([sleep(reply.delayMs), gone]);
    } else if (batch.length >= BATCH_CHARS) await flush();
  }
  if (res.destroyed) return;
  await flush();
  res.end();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
