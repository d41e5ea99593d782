import type { FrontendClient } from '@nodwyn/protocol';

/** What a front end is started with: a connected client, never the kernel. */
export interface FrontendLaunch {
  /**
   * The protocol client, already connected (in-process, or over WebSocket to a daemon). Everything the
   * front end shows or asks goes through it; it is the front end's only way to the agent.
   */
  readonly client: FrontendClient;
  /** The workspace the person started nodwyn in (a real path): where a new session's `cwd` points. */
  readonly workspace: string;
  /** The command-line arguments meant for the front end, as given. */
  readonly args: readonly string[];
  /** Aborted when the app is shutting down (Ctrl-C, SIGTERM): end promptly, with an exit code. */
  readonly signal: AbortSignal;
}

/**
 * A front end (terminal UI, web console, desktop window) contributed by a plugin of kind `frontend`
 * (`provides: ['frontend:tui']`). The plugin host keeps the front ends, not the kernel; the app starts
 * the one the person or the distribution chose (docs/architecture.md §9).
 */
export interface Frontend {
  /** The id after `frontend:` in the manifest (`tui`, `web`, `desktop`). */
  readonly id: string;
  /** One line for `nodwyn plugins`: what this front end is. */
  readonly description: string;
  /**
   * The front end runs outside this process (a browser tab, a desktop window) and needs the daemon: the
   * app starts `nodwyn serve` first when none runs, connects `launch.client` to it, then calls `start`.
   */
  readonly daemon?: true;
  /**
   * Runs the front end until the person leaves it or `launch.signal` aborts, and returns the process
   * exit code (0 for a normal end). It must not close `launch.client`: the app owns the connection.
   */
  start(launch: FrontendLaunch): Promise<number>;
}
