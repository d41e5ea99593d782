import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { clientError } from './protocol-error.js';

/** The two ends of an in-memory ACP connection. */
export interface LinkedStreams {
  /** The end a client takes: `connectStream(client, …)`. */
  readonly client: Stream;
  /** The end the agent serves: `agent(…).connect(server)`. */
  readonly server: Stream;
}

interface Half {
  controller?: ReadableStreamDefaultController<AnyMessage>;
  done: boolean;
}

/**
 * Two ACP Streams joined in memory, for a front end running in the daemon's own process (the TUI): what
 * one end writes, the other reads, in order. Messages pass as the same objects, not copies, since both
 * sides only read them. Either side hanging up (cancelling its readable, or closing its writable) ends
 * both directions, so the other side's connection closes at once rather than at its next write.
 */
export function linkedStreams(): LinkedStreams {
  const halves: [Half, Half] = [{ done: false }, { done: false }];
  let linked = true;
  const hangUp = () => {
    if (!linked) return;
    linked = false;
    for (const half of halves) {
      if (half.done) continue;
      half.done = true;
      half.controller?.close();
    }
  };
  const end = (own: Half, peer: Half): Stream => ({
    readable: new ReadableStream<AnyMessage>({
      start(controller) {
        own.controller = controller;
      },
      cancel() {
        own.done = true;
        hangUp();
      },
    }),
    writable: new WritableStream<AnyMessage>({
      write(message) {
        if (!linked) {
          throw clientError('CLIENT_CONNECTION_LOST', { operation: 'linked.send', remediation: 'The other end of the in-process connection hung up; connect again.' });
        }
        peer.controller?.enqueue(message);
      },
      close: hangUp,
      abort: hangUp,
    }),
  });
  return { client: end(halves[0], halves[1]), server: end(halves[1], halves[0]) };
}
