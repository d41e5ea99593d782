import { randomBytes } from 'node:crypto';
import { openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentInfo } from './agent-app.js';
import type { AgentRuntime } from './agent-runtime.js';
import { alive, readDaemonFile, removeDaemonFile, writeDaemonFile, type DaemonFile } from './daemon-file.js';
import { serverErrors } from './errors.js';
import { SessionManager } from './session-manager.js';
import type { LoginLink } from './login-links.js';
import { startWebSocketServer, type TlsMaterial } from './websocket-server.js';

/** How to start the daemon. */
export interface DaemonOptions {
  /** The data folder (`$NODWYN_HOME`): one daemon per folder. */
  readonly home: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly runtime: AgentRuntime;
  readonly info: AgentInfo;
  readonly maxFrameBytes?: number;
  /** `127.0.0.1` unless given (`[serve] host`); another host needs `tls`. */
  readonly host?: string;
  /** Serve https and wss with this certificate (`[serve] tls_cert`, `tls_key`). */
  readonly tls?: TlsMaterial;
  /** The web console's bundle, served at the daemon's `http` URL. */
  readonly webRoot?: string;
}

/** A running daemon. */
export interface Daemon {
  readonly file: DaemonFile;
  readonly sessions: SessionManager;
  /** A one-time login link for the web console. */
  loginLink(): LoginLink;
  /** Ends running turns as cancelled (logged), closes every connection and the database, removes serve.json. */
  stop(): Promise<void>;
}

/**
 * Starts `nodwyn serve`: claims the data folder (a second daemon is refused, naming the first), closes the
 * turns a killed daemon left open (their questions expire, logged), listens on loopback (or, over TLS, on
 * the host given), serves the protocol and the web console there, and writes
 * `serve.json` (0600) with the URL and a fresh token.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const releaseLock = claim(options.home);
  let sessions: SessionManager | undefined;
  try {
    sessions = new SessionManager(options.runtime);
    await sessions.recoverInterrupted();
    const token = randomBytes(32).toString('base64url');
    const server = await startWebSocketServer({
      sessions,
      info: options.info,
      token,
      port: options.port,
      host: options.host,
      tls: options.tls,
      webRoot: options.webRoot,
      maxFrameBytes: options.maxFrameBytes,
    });
    const file: DaemonFile = { url: server.url, http: server.http, token, pid: process.pid };
    writeDaemonFile(options.home, file);
    const live = sessions;
    let stopping: Promise<void> | undefined;
    return {
      file,
      sessions: live,
      loginLink: () => server.loginLink(),
      stop: () =>
        (stopping ??= (async () => {
          await live.shutdown();
          await server.close();
          await options.runtime.close();
          removeDaemonFile(options.home, process.pid);
          releaseLock();
        })()),
    };
  } catch (error) {
    await sessions?.shutdown();
    releaseLock();
    throw error;
  }
}

/**
 * Stops the daemon of `home` (SIGTERM, then waits for it to exit); returns what it was. `DAEMON_NOT_RUNNING`
 * when none runs (a stale serve.json is removed), `DAEMON_STOP_TIMEOUT` when it did not exit in time.
 */
export async function stopDaemon(home: string, timeoutMs = 15_000): Promise<DaemonFile> {
  const file = readDaemonFile(home);
  if (!file || !alive(file.pid)) {
    if (file) removeDaemonFile(home, file.pid);
    throw serverErrors.error('DAEMON_NOT_RUNNING', { operation: 'serve --stop', received_value: home, remediation: 'No nodwyn serve runs for this NODWYN_HOME; start one with nodwyn serve.' });
  }
  process.kill(file.pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (alive(file.pid)) {
    if (Date.now() > deadline) {
      throw serverErrors.error('DAEMON_STOP_TIMEOUT', { operation: 'serve --stop', received_value: String(file.pid), remediation: `nodwyn serve (pid ${file.pid}) did not stop within ${timeoutMs / 1000} s; kill it with kill -9 ${file.pid}.` });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return file;
}

/** Takes the data folder's daemon lock, or says where the running daemon is. Returns the release. */
function claim(home: string): () => void {
  const lock = join(home, 'serve.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        if (readLockPid(lock) === process.pid) rmSync(lock, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLockPid(lock);
      if (holder !== undefined && alive(holder)) throw running(home, holder);
      // A daemon that was killed left its lock: take it over.
      rmSync(lock, { force: true });
    }
  }
  throw running(home, readLockPid(lock) ?? 0);
}

function readLockPid(lock: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function running(home: string, pid: number): Error {
  const file = readDaemonFile(home);
  const where = file ? `at ${file.url} (pid ${file.pid})` : `(pid ${pid})`;
  return serverErrors.error('DAEMON_RUNNING', {
    operation: 'serve',
    received_value: home,
    remediation: `nodwyn serve already runs for this NODWYN_HOME ${where}; connect to it, or stop it first with nodwyn serve --stop.`,
  });
}
