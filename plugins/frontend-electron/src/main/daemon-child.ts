/** How a daemon child ended. */
export interface DaemonExit {
  readonly code: number | null;
  readonly signal: string | null;
}

/**
 * A `nodwyn serve --port 0` child process, as the supervisor sees it. The child prints its WebSocket URL
 * as the first line on stdout once serve.json is written (docs/frontends.md), so that line means ready.
 */
export interface DaemonChild {
  readonly pid: number | undefined;
  /** The first stdout line (the daemon's `ws://…/acp` URL); rejects if the process ends before it. */
  readonly ready: Promise<string>;
  /** Settles when the process has ended, however it ended. */
  readonly exited: Promise<DaemonExit>;
  /** The last lines the child wrote to stderr (bounded), or why it could not be spawned. */
  lastError(): string;
  /** Asks the child to stop (SIGTERM: the daemon ends its turns as cancelled and closes the log). */
  stop(): void;
}

/** Starts a daemon child serving the nodwyn home `home`. */
export type DaemonSpawner = (home: string) => DaemonChild;
