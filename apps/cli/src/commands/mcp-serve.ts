import { serveMcpStdio, startMcpHttp, type McpServerInfo, type McpToolHost } from '@nodwyn/plugin-mcp/server';
import { openRuntime } from '@nodwyn/runtime';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Console } from 'node:console';
import { cliBoot } from '../cli-boot.js';
import { EXIT } from '../exit-codes.js';
import { InvalidOption } from '../option-parsers.js';
import { forTerminal } from '../terminal-text.js';
import { VERSION } from '../version.js';
import { guarded, reportFailure } from './guarded.js';
import { kernelToolHost, type KernelToolHost } from './mcp-serve-host.js';
import { untilSignal } from './until-signal.js';

/** Options of `nodwyn mcp serve`. */
export interface McpServeFlags {
  /** Streamable HTTP on 127.0.0.1 instead of stdio. */
  readonly http?: boolean;
  /** The HTTP port; 0 (the default) picks a free one. */
  readonly port?: number;
}

/** The file `nodwyn mcp serve --http` writes in the data folder: where it listens and its token. */
export const MCP_SERVE_FILE = 'mcp-serve.json';

/**
 * `nodwyn mcp serve`: the current workspace's tools, guarded as a model's calls, served to other MCP
 * clients. Boots the default distribution here (a repository's config applies only when trusted, as for
 * `nodwyn run` and `nodwyn acp`); each connection gets its own session. Over stdio by default (stdout
 * carries JSON-RPC alone, everything else goes to stderr); `--http` serves streamable HTTP on loopback
 * with a fresh bearer token, printed as one JSON line `{"url","token"}` on stdout and written to
 * `$NODWYN_HOME/mcp-serve.json` (0600). Ends when the client closes stdin (stdio), or on SIGINT, SIGTERM
 * or SIGHUP; running calls are cancelled, logged, and the database closed.
 */
export async function mcpServeCommand(flags: McpServeFlags): Promise<number> {
  if (flags.port !== undefined && !flags.http) return reportFailure(new InvalidOption('--port', String(flags.port), 'a port only together with --http'), false, EXIT.USAGE);
  if (!flags.http) keepStdoutForJsonRpc();
  return guarded(false, async () => {
    const runtime = await openRuntime(cliBoot());
    const signal = untilSignal();
    let host: KernelToolHost | undefined;
    try {
      host = kernelToolHost(await runtime.scope(process.cwd()));
      const info = { name: 'nodwyn', version: VERSION };
      if (flags.http) await serveHttp(host, info, flags.port ?? 0, join(runtime.dataDir, MCP_SERVE_FILE), signal.received);
      else await serveStdio(host, info, signal.received);
    } finally {
      signal.dispose();
      await host?.close();
      await runtime.close();
    }
    return EXIT.OK;
  });
}

async function serveStdio(host: McpToolHost, info: McpServerInfo, stop: Promise<unknown>): Promise<void> {
  const stopping = new AbortController();
  void stop.then(() => stopping.abort());
  await serveMcpStdio(host, info, { signal: stopping.signal, onNotice: (line) => process.stderr.write(`nodwyn: ${forTerminal(line)}\n`) });
}

async function serveHttp(host: McpToolHost, info: McpServerInfo, port: number, file: string, stop: Promise<unknown>): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const served = await startMcpHttp(host, info, { token, port });
  const record = { url: served.url, token, pid: process.pid };
  writePrivate(file, record);
  process.stdout.write(`${JSON.stringify({ url: served.url, token })}\n`);
  process.stderr.write(`nodwyn: serving MCP on ${served.url} (token in ${file}); Ctrl-C stops\n`);
  try {
    await stop;
  } finally {
    await served.close();
    removeIfOurs(file, token);
  }
}

/** Writes `value` as JSON readable by the person alone: a fresh file created 0600. */
function writePrivate(path: string, value: unknown): void {
  rmSync(path, { force: true });
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
}

/** Removes the file unless another `mcp serve --http` wrote its own since (or it is gone already). */
function removeIfOurs(path: string, token: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (text.includes(JSON.stringify(token))) rmSync(path, { force: true });
}

/**
 * Over stdio, stdout is the JSON-RPC channel: what a plugin prints with `console.log` (or `info`,
 * `debug`, `table`…) goes to stderr instead, so it can never break a frame.
 */
function keepStdoutForJsonRpc(): void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const method of ['log', 'info', 'debug', 'dir', 'table', 'trace', 'group', 'groupCollapsed'] as const) {
    (console as unknown as Record<string, unknown>)[method] = toStderr[method].bind(toStderr);
  }
}
