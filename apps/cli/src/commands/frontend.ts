import { EnvelopeError, isEnvelopeError, type Frontend } from '@nodwyn/plugin-api';
import type { FrontendClient } from '@nodwyn/protocol';
import { dataDir, loadFrontendAlone, openRuntime, type LoadedFrontend, type Runtime, type WorkspaceScope } from '@nodwyn/runtime';
import { realpathSync } from 'node:fs';
import { serverErrors, type ServerCode } from '@nodwyn/server';
import { daemonConnection, inProcessConnection, runningDaemon, viaProtocol, type AgentConnection } from '../agent-connection.js';
import { agentRuntimeOver } from '../agent-runtime.js';
import { cliBoot } from '../cli-boot.js';
import { ensureDaemon } from '../daemon-launcher.js';
import { TUI_PACKAGE } from '../frontend-packages.js';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { forTerminal } from '../terminal-text.js';
import { reportFailure } from './guarded.js';
import { DEFAULT_SERVE_PORT } from './serve.js';

/** What the person asked the front end to open. */
export type FrontendRequest =
  /** `nodwyn`: a new session in this folder. */
  | { readonly kind: 'new' }
  /** `nodwyn -c`: this folder's latest session, else a new one. */
  | { readonly kind: 'continue' }
  /** `nodwyn --resume [ID]`: that session, or the front end's list to pick from. */
  | { readonly kind: 'resume'; readonly session?: string }
  /** `nodwyn attach [--session ID]`: a session of the running daemon. */
  | { readonly kind: 'attach'; readonly session?: string };

/**
 * Starts the distribution's front end with a connected client: to the daemon of this NODWYN_HOME when one
 * runs (so the front end shares its sessions with every other client), else to an agent served in this
 * process; a front end that needs the daemon (`daemon: true`, the web console) gets it started first. Exits with the front end's code, once the client is closed, the in-process agent's running
 * turns have ended cancelled, and the log is closed.
 */
export async function frontendCommand(request: FrontendRequest): Promise<number> {
  try {
    return await launch(request);
  } catch (error) {
    // "No daemon" is a check that failed, as for `nodwyn serve --stop`: exit 1.
    const noDaemon = isEnvelopeError(error) && error.envelope.code === ('DAEMON_NOT_RUNNING' satisfies ServerCode);
    return reportFailure(error, false, noDaemon ? EXIT.CHECK_FAILED : EXIT.ENVELOPE);
  }
}

async function launch(request: FrontendRequest): Promise<number> {
  const home = dataDir();
  const daemon = runningDaemon(home);
  if (request.kind === 'attach' && daemon === undefined) {
    throw serverErrors.error('DAEMON_NOT_RUNNING', {
      operation: 'attach',
      received_value: home,
      remediation: 'nodwyn attach joins a session of the daemon, and none runs for this NODWYN_HOME: start it with `nodwyn serve`, then attach again (or run `nodwyn`, which serves its session itself).',
    });
  }
  const runtime = await openRuntime(cliBoot());
  let alone: LoadedFrontend | undefined;
  try {
    const workspace = realpathSync(process.cwd());
    const session = request.kind === 'resume' || request.kind === 'attach' ? request.session : undefined;
    if (session !== undefined) requireSession(runtime, session);
    // The default front end starts on its own plugin when the distribution says which it is, so the person
    // sees it at once; the workspace's other plugins boot when the agent first needs them.
    alone = await loadFrontendAlone(runtime, runtime.distribution.defaultFrontend ?? '', workspace);
    const frontend = alone?.frontend ?? frontendOf(await runtime.scope(workspace));
    const who = { name: `nodwyn-${frontend.id}` };
    // A front end outside this process (a browser tab, a window) needs the daemon: started first when none runs.
    if (frontend.daemon && daemon === undefined) await ensureDaemon(home, DEFAULT_SERVE_PORT, note);
    const connection: AgentConnection = daemon || frontend.daemon ? await daemonConnection(home, who) : await inProcessConnection(agentRuntimeOver(runtime), who);
    try {
      const args = await frontendArgs(request, connection.client, workspace);
      return await start(frontend, connection.client, workspace, connection.attached ? [...args, '--attached'] : args);
    } finally {
      await connection.close();
    }
  } finally {
    await alone?.close();
    await runtime.close();
  }
}

/** A session the person named must be in the log: `SESSION_NOT_FOUND` (exit 3) before any front end starts. */
function requireSession(runtime: Runtime, session: string): void {
  const first = runtime.log.read(session, 1, 1)[0];
  if (first?.type === 'session.created') return;
  throw serverErrors.error('SESSION_NOT_FOUND', {
    operation: 'nodwyn',
    failed_parameter: '--session',
    received_value: session,
    remediation: 'No session has that id. Run `nodwyn log list` to see the sessions, or `nodwyn --resume` to pick one.',
  });
}

/** The distribution's default front end, if a started plugin provides it; `FRONTEND_NOT_FOUND` otherwise. */
function frontendOf(scope: WorkspaceScope): Frontend {
  const id = scope.distribution.defaultFrontend;
  const frontend = id === undefined ? undefined : scope.host.frontend(id);
  if (frontend) return frontend;
  const others = scope.host.frontends().map((f) => f.id);
  const failed = scope.host.report().find((p) => p.state !== 'started' && (p.provides.includes(`frontend:${id}`) || (id === 'tui' && p.name === TUI_PACKAGE)));
  const why = failed ? ` (${failed.name}: ${failed.state}${failed.envelope?.code ? `, ${failed.envelope.code}` : ''})` : '';
  throw new EnvelopeError({
    category: 'NOT_FOUND',
    code: CliCodes.FRONTEND_NOT_FOUND,
    operation: 'nodwyn',
    failed_parameter: '[distribution] frontend',
    received_value: id ?? null,
    expected: others.length > 0 ? `one of the front ends there are: ${others.join(', ')}` : 'a front end a started plugin provides',
    remediation:
      id === undefined
        ? 'This distribution names no front end: set [distribution] frontend in config.toml to one that `nodwyn plugins` lists. Without one, ask with nodwyn run "PROMPT".'
        : `No front end "${id}" is available: no started plugin provides frontend:${id}${why}. \`nodwyn plugins\` lists the plugins, why one failed, and the front ends there are; install the plugin that provides it, or set [distribution] frontend in config.toml to another. Without one, ask with nodwyn run "PROMPT".`,
  });
}

/** The arguments the front end gets: which session to open (none: a new one), or `--pick` to choose one. */
async function frontendArgs(request: FrontendRequest, client: FrontendClient, workspace: string): Promise<string[]> {
  switch (request.kind) {
    case 'new':
      return [];
    case 'resume':
      return request.session === undefined ? ['--pick'] : ['--session', request.session];
    case 'continue': {
      const [latest] = await viaProtocol(() => client.listSessions({ workspace, limit: 1 }));
      if (latest) return ['--session', latest.sessionId];
      note(`no earlier session in ${workspace}; starting a new one`);
      return [];
    }
    case 'attach': {
      if (request.session !== undefined) return ['--session', request.session];
      // A session running (or waiting for a person) is the one to join; else the one active last.
      const sessions = await viaProtocol(() => client.listSessions());
      const chosen = sessions.find((s) => s.state !== 'idle') ?? sessions[0];
      if (chosen === undefined) {
        note(`the daemon has no session yet; starting a new one in ${workspace}`);
        return [];
      }
      note(`attaching to ${chosen.sessionId} (${chosen.state}${chosen.title ? `: ${chosen.title}` : ''}) in ${chosen.workspace}`);
      return ['--session', chosen.sessionId];
    }
  }
}

/**
 * Runs the front end until it returns its exit code. SIGTERM and SIGHUP (a closed terminal) abort its
 * signal so it can end cleanly; a second one quits at once. Ctrl-C is the front end's own key.
 */
async function start(frontend: Frontend, client: FrontendClient, workspace: string, args: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const signals = ['SIGTERM', 'SIGHUP'] as const;
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.CANCELLED);
    controller.abort();
  };
  for (const signal of signals) process.on(signal, onSignal);
  try {
    return await frontend.start({ client, workspace, args, signal: controller.signal });
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
  }
}

function note(line: string): void {
  process.stderr.write(`nodwyn: ${forTerminal(line)}\n`);
}
