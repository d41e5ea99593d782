/** One request a wire server received, and what became of its connection. */
export interface WireRequestRecord {
  readonly method: string;
  /** Path and query, e.g. `/v1/messages`. */
  readonly path: string;
  /** Lower-case header names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or its raw text when it was not JSON. */
  readonly body: unknown;
  /** The id the answer carried in its request-id header. */
  readonly requestId: string;
  /** The server wrote the whole answer. */
  readonly finished: boolean;
  /** The client closed the connection before the answer was complete (a cancel); the server's own resets do not count. */
  readonly aborted: boolean;
  /** Resolves once the exchange is over: the answer finished, or the connection closed. */
  readonly settled: Promise<void>;
}

/** The mutable record behind `WireRequestRecord`, settled by the server. */
export class WireExchange implements WireRequestRecord {
  finished = false;
  aborted = false;
  /** Set before the server drops the connection on purpose, so the close is not taken for a cancel. */
  droppedByServer = false;
  readonly settled: Promise<void>;
  private resolve!: () => void;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: unknown,
    readonly requestId: string,
  ) {
    this.settled = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  /** Called when the server has handed the last byte of the answer to the socket. */
  markFinished(): void {
    this.finished = true;
  }

  /** Called when the response closes: complete, dropped by the server, or cut by the client. */
  markClosed(): void {
    this.aborted = !this.finished && !this.droppedByServer;
    this.resolve();
  }
}
