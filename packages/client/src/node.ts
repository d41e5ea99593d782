import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import type { ReconnectOptions } from './backoff.js';
import { dialWebSocket } from './dial-web-socket.js';
import { NodwynClient, type ClientOptions, type Dialer } from './nodwyn-client.js';
import { clientError } from './protocol-error.js';

/** Where a Node client connects, and how it comes back. */
export interface NodeConnectOptions extends ClientOptions {
  /** The daemon's `url` from serve.json: `ws://127.0.0.1:PORT/acp`. */
  readonly url: string;
  /** The daemon's token from serve.json, sent as `Authorization: Bearer …`. */
  readonly token: string;
  /** How to come back after the connection drops; `false` never reconnects. */
  readonly reconnect?: ReconnectOptions | false;
}

/**
 * Connects from Node with `ws`, the token in the upgrade's `Authorization` header (never in the URL, so
 * it stays out of logs). Resolves once initialized; a refused token rejects with an AUTH_FAILED
 * ProtocolError.
 */
export function connectNode(options: NodeConnectOptions): Promise<NodwynClient> {
  const dial = nodeDialer(() => options);
  return NodwynClient.connect({ dial, reconnect: options.reconnect }, options);
}

/** What `nodwyn serve` writes to `$NODWYN_HOME/serve.json` while it runs. */
export interface ServeInfo {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/`, the daemon's own origin. */
  readonly http: string;
  readonly token: string;
  readonly pid: number;
}

/** Reads and checks `serve.json` in `nodwynHome`; rejects with a NOT_FOUND envelope when no daemon runs there. */
export async function readServeInfo(nodwynHome: string): Promise<ServeInfo> {
  const file = join(nodwynHome, 'serve.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw clientError('CLIENT_SERVE_INFO_MISSING', {
        operation: 'daemon.locate',
        received_value: file,
        remediation: `No daemon runs for ${nodwynHome}: ${file} does not exist. Start one with \`nodwyn serve\` (with the same NODWYN_HOME).`,
      });
    }
    throw serveInfoInvalid(file, `it cannot be read: ${(error as Error).message}`, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw serveInfoInvalid(file, 'it is not JSON', error);
  }
  const info = value as Partial<Record<keyof ServeInfo, unknown>> | null;
  if (typeof info !== 'object' || info === null) throw serveInfoInvalid(file, 'it is not a JSON object');
  for (const key of ['url', 'http', 'token'] as const) {
    if (typeof info[key] !== 'string' || info[key] === '') throw serveInfoInvalid(file, `its ${key} is not a non-empty string`);
  }
  if (!Number.isInteger(info.pid)) throw serveInfoInvalid(file, 'its pid is not an integer');
  return { url: info.url as string, http: info.http as string, token: info.token as string, pid: info.pid as number };
}

/** Where the daemon is found and how to come back. */
export interface DaemonConnectOptions extends ClientOptions {
  /** The nodwyn home the daemon serves: `$NODWYN_HOME`, else the XDG data dir, as the daemon itself picks it. */
  readonly home?: string;
  readonly reconnect?: ReconnectOptions | false;
}

/**
 * Connects to the daemon of a nodwyn home: reads its serve.json, then connects as `connectNode`. Every
 * reconnect reads serve.json again, so a daemon that restarted on a new port with a new token is found.
 */
export function connectDaemon(options: DaemonConnectOptions): Promise<NodwynClient> {
  const home = options.home ?? defaultNodwynHome();
  const dial = nodeDialer(() => readServeInfo(home));
  return NodwynClient.connect({ dial, reconnect: options.reconnect }, options);
}

/** `$NODWYN_HOME`, else `$XDG_DATA_HOME/nodwyn`, else `~/.local/share/nodwyn`: where the daemon writes serve.json. */
export function defaultNodwynHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NODWYN_HOME) return env.NODWYN_HOME;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'nodwyn');
}

function nodeDialer(target: () => { url: string; token: string } | Promise<{ url: string; token: string }>): Dialer {
  return async (onInvalidFrame) => {
    const { url, token } = await target();
    return dialWebSocket(() => new WebSocket(url, { headers: { authorization: `Bearer ${token}` } }), url, onInvalidFrame);
  };
}

function serveInfoInvalid(file: string, why: string, cause?: unknown) {
  return clientError(
    'CLIENT_SERVE_INFO_INVALID',
    {
      operation: 'daemon.locate',
      received_value: file,
      expected: '{ "url", "http", "token", "pid" } as `nodwyn serve` writes it',
      remediation: `${file} is not what \`nodwyn serve\` writes (${why}). Stop the daemon (\`nodwyn serve --stop\`) and start it again.`,
    },
    cause,
  );
}
export { openBrowser, openerCommand, type OpenBrowserOptions } from './open-browser.js';
