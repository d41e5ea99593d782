/** What `nodwyn serve` writes to `$NODWYN_HOME/serve.json`: where it listens and its bearer token. */
export interface DaemonEndpoint {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/`: the daemon's origin, the only one the window may show. */
  readonly http: string;
  readonly token: string;
  readonly pid: number;
}

/** Reads serve.json in a nodwyn home; `undefined` when there is none (or it is torn). */
export type ServeFileReader = (home: string) => Promise<DaemonEndpoint | undefined>;

/** Parses serve.json's text; `undefined` unless it has the four fields. */
export function parseServeFile(text: string): DaemonEndpoint | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // A torn or foreign file names no daemon.
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const file = data as Partial<Record<keyof DaemonEndpoint, unknown>>;
  if (typeof file.url !== 'string' || typeof file.http !== 'string' || typeof file.token !== 'string') return undefined;
  if (typeof file.pid !== 'number' || !Number.isInteger(file.pid)) return undefined;
  return { url: file.url, http: file.http, token: file.token, pid: file.pid };
}
