import { KERNEL_STREAM, TURN_EVENTS, type EventLog, type Kernel } from '@nodwyn/kernel';
import type { ProviderChoice, SessionSummary } from '@nodwyn/protocol';
import { latestTitle, loadConfig, type Config } from '@nodwyn/runtime';
import { realpathSync } from 'node:fs';
import type { AgentRuntime, AgentScope } from './agent-runtime.js';
import type { ClientConnection } from './client-connection.js';
import { serverErrors } from './errors.js';
import { completeFiles } from './file-completion.js';
import { LiveSession } from './live-session.js';
import { promptHistory } from './prompt-history.js';
import { configuredProvider, providerChoices } from './provider-choices.js';
import { configureProvider, type ProviderSetup, type ProviderSetupResult } from './provider-setup.js';
import { SessionCosts } from './session-costs.js';
import { workspaceOf } from './workspace-folder.js';

/** How the session manager serves what belongs to no session. */
export interface SessionManagerOptions {
  /**
   * The workspace whose scope answers what no session's workspace decides (the providers a person may
   * set up: every scope loads the same distribution): the daemon's current directory by default.
   */
  readonly defaultWorkspace?: string;
}

/** Events per page sent while a session's workspace boots for an attach. */
const EARLY_PAGE = 256;

/**
 * Every session the agent serves, over one log. Sessions of different workspaces run at once, each in its
 * workspace's kernel scope; a session is live (in memory, with its clients) from `session/new`, `load`,
 * `attach` or a prompt until the agent stops. The log stays the truth: a live session is rebuilt from it,
 * and a turn a dead process left open is closed (`kernel.recover`) before the session is served again.
 */
export class SessionManager {
  readonly #live = new Map<string, LiveSession>();
  readonly #opening = new Map<string, Promise<LiveSession>>();
  readonly #unsubscribe: () => void;

  readonly #defaultWorkspace: string;
  readonly #personConfig: () => Config;
  readonly #costs: SessionCosts;
  /** Set while the daemon's plugins restart: sessions open again once it settles. */
  #restarting: Promise<unknown> | undefined;

  constructor(
    private readonly runtime: AgentRuntime,
    options: SessionManagerOptions = {},
  ) {
    this.#defaultWorkspace = options.defaultWorkspace ?? process.cwd();
    this.#personConfig = () => loadConfig(runtime.configFile);
    this.#costs = new SessionCosts(runtime.log);
    this.#unsubscribe = runtime.log.subscribe((event) => this.#live.get(event.session)?.onLog(event));
  }

  /** `session/new`: a session in `cwd`, which must be a folder. */
  async create(cwd: string): Promise<LiveSession> {
    const scope = await this.runtime.scope(workspaceOf(cwd));
    const id = scope.kernel.sessions.create({ workspace: scope.workspace });
    return this.#serve(id, scope);
  }

  /**
   * `_nodwyn/session/fork`: a new session in the same workspace whose window starts as `id`'s at `atSeq`
   * (default: its latest event), live and attached to `connection` like an attach from seq 0.
   * `SESSION_NOT_FOUND` for an unknown session; a seq out of range is the kernel's envelope.
   */
  async fork(connection: ClientConnection, id: string, atSeq?: number): Promise<LiveSession> {
    const parent = await this.open(id);
    const child = this.#serve(parent.scope.kernel.sessions.fork(id, atSeq), parent.scope);
    await child.attach(connection, 0);
    return child;
  }

  /** `_nodwyn/prompts/history`: the person's prompts in `workspace` (a folder), newest first, each once. */
  promptHistory(workspace: string, limit: number): string[] {
    return promptHistory(this.runtime.log, workspaceOf(workspace, 'prompts/history', '$.workspace'), limit);
  }

  /** `_nodwyn/files/complete`: the workspace's paths starting with `prefix`, shortest first. */
  completeFiles(workspace: string, prefix: string, limit: number): Promise<string[]> {
    const real = workspaceOf(workspace, 'files/complete', '$.workspace');
    return completeFiles({ workspace: real, prefix, limit, protectedFolders: this.runtime.protectedFolders });
  }

  /** `_nodwyn/providers/list`: the providers a person may set up, and what config.toml configures. */
  async providers(): Promise<{ providers: ProviderChoice[]; configured?: { provider: string; model?: string } }> {
    const config = this.#personConfig();
    const kernel = (await this.#defaultScope()).kernel;
    const configured = configuredProvider(config);
    return { providers: providerChoices(kernel, config), ...(configured ? { configured } : {}) };
  }

  /** `_nodwyn/providers/configure`: first-run setup (see `configureProvider`); the next prompt of any session uses it. */
  async configureProvider(request: ProviderSetup): Promise<ProviderSetupResult> {
    return configureProvider((await this.#defaultScope()).kernel, this.runtime.configFile, request);
  }

  /** The one log every session lives in (the console reads and verifies it). */
  get log(): EventLog {
    return this.runtime.log;
  }

  /** The person's config.toml, which provider setup and the console's settings write. */
  get configFile(): string {
    return this.runtime.configFile;
  }

  /** The kernel of the workspace the agent answers from when no session's workspace decides (the keychain's and the bindings' commands). */
  async defaultKernel(): Promise<Kernel> {
    return (await this.#defaultScope()).kernel;
  }

  /**
   * The kernel scope of `workspace` (a folder), for the console's capability methods: refused with
   * `WORKSPACE_UNTRUSTED` while its repository config (`.nodwyn/`) waits for the person's review.
   */
  async workspaceKernel(workspace: string, operation: string): Promise<Kernel> {
    const scope = await this.runtime.scope(workspaceOf(workspace, operation, '$.workspace'));
    const trust = scope.trust();
    if (trust.status === 'untrusted' || trust.status === 'changed') {
      throw serverErrors.error('WORKSPACE_UNTRUSTED', {
        operation,
        failed_parameter: '$.workspace',
        received_value: scope.workspace,
        remediation: `${scope.workspace} has repository config (.nodwyn/) you have not trusted${trust.status === 'changed' ? ' since it changed' : ''}; review and trust it in a terminal (cd ${scope.workspace} && nodwyn trust), then try again.`,
      });
    }
    return scope.kernel;
  }

  /**
   * Saves settings and restarts the daemon's plugins with them: refused with `SESSION_BUSY` (nothing
   * written) while any session runs a turn, since a turn would lose its plugins mid-way; otherwise `write`
   * runs, every booted workspace scope boots again from config.toml, and each live session carries on in
   * its workspace's new scope with its clients. Sessions that open meanwhile wait for it. Answers how many
   * workspaces restarted.
   */
  async restartPlugins(write: () => void): Promise<number> {
    await this.#restarting;
    const busy = [...this.#live.values()].find((live) => live.state !== 'idle');
    if (busy) {
      throw serverErrors.error('SESSION_BUSY', {
        operation: 'settings/set',
        received_value: busy.id,
        remediation: `Session ${busy.id} is running a turn; settings restart every plugin, so wait for its answer (or cancel it), then save again. Nothing was saved.`,
      });
    }
    write();
    const restarting = this.#restartScopes();
    this.#restarting = restarting.catch(() => undefined);
    try {
      return await restarting;
    } finally {
      this.#restarting = undefined;
    }
  }

  async #restartScopes(): Promise<number> {
    const restarted = await this.runtime.restart();
    for (const live of [...this.#live.values()]) {
      try {
        live.rescope(await this.runtime.scope(live.scope.workspace));
      } catch {
        // Its workspace failed to boot again: the session is opened afresh (with that envelope) on next use.
        this.#live.delete(live.id);
      }
    }
    return restarted;
  }

  /** The live session `id`, opened from the log when it is not live yet; `SESSION_NOT_FOUND` when the log has none. */
  open(id: string): Promise<LiveSession> {
    if (this.#restarting) return this.#restarting.then(() => this.open(id));
    const live = this.#live.get(id);
    if (live) return Promise.resolve(live);
    let opening = this.#opening.get(id);
    if (!opening) {
      opening = this.#openFromLog(id).finally(() => this.#opening.delete(id));
      this.#opening.set(id, opening);
    }
    return opening;
  }

  /**
   * `_nodwyn/session/attach`: the session's log events after `fromSeq`, then every live update. A session
   * that is not live yet starts arriving at once, straight from the log, while its workspace boots; the
   * live session then carries on from the last event sent, so nothing is sent twice or skipped.
   */
  async attach(connection: ClientConnection, id: string, fromSeq: number): Promise<number> {
    const live = this.#live.get(id);
    if (live) return live.attach(connection, fromSeq);
    let opened: LiveSession | undefined;
    let failed = false;
    const opening = this.open(id).then(
      (session) => (opened = session),
      (error: unknown) => {
        failed = true;
        throw error;
      },
    );
    opening.catch(() => undefined);
    let sent = fromSeq;
    while (opened === undefined && !failed && !connection.closed) {
      const page = this.runtime.log.read(id, sent + 1, sent + EARLY_PAGE);
      for (const event of page) connection.log(id, event);
      sent += page.length;
      if (page.length < EARLY_PAGE) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return (await opening).attach(connection, sent);
  }

  /** The session if it is live here; nothing to cancel or answer otherwise. */
  live(id: string): LiveSession | undefined {
    return this.#live.get(id);
  }

  /** `_nodwyn/sessions/list`: newest activity first, optionally one workspace's, at most `limit`. */
  list(options: { workspace?: string; limit?: number } = {}): SessionSummary[] {
    const rows = this.runtime.log.sessions().filter((row) => row.id !== KERNEL_STREAM);
    const summaries: SessionSummary[] = [];
    for (const row of rows) {
      const created = (row.created_payload ?? {}) as { workspace?: string; title?: string };
      const workspace = created.workspace ?? '';
      if (options.workspace !== undefined && workspace !== options.workspace) continue;
      const live = this.#live.get(row.id);
      const title = live?.title ?? latestTitle(this.runtime.log, row.id) ?? created.title;
      const cost = this.#costs.of(row.id, row.events);
      summaries.push({ sessionId: row.id, workspace, ...(title ? { title } : {}), state: live?.state ?? 'idle', lastActivity: row.updated, events: row.events, ...(cost === undefined ? {} : { cost }) });
      if (options.limit !== undefined && summaries.length >= options.limit) break;
    }
    return summaries;
  }

  /**
   * Closes every turn a dead process left open (a daemon killed with a question pending): each session's
   * pending questions are logged as expired and its turn as interrupted, so it can be continued.
   */
  async recoverInterrupted(): Promise<readonly string[]> {
    const open = this.runtime.log.sessionsEndingIn('turn.started', TURN_EVENTS);
    for (const id of open) await this.open(id);
    return open;
  }

  /** A client left: it is dropped from every session (a running prompt goes on for the others). */
  disconnect(connection: ClientConnection): void {
    for (const live of this.#live.values()) live.subscribers.remove(connection);
  }

  /** Cancels every running prompt and waits until each has logged its end. */
  async shutdown(): Promise<void> {
    const live = [...this.#live.values()];
    for (const session of live) session.cancel();
    await Promise.all(live.map((session) => session.settled()));
    this.#unsubscribe();
  }

  async #openFromLog(id: string): Promise<LiveSession> {
    const first = this.runtime.log.read(id, 1, 1)[0];
    if (!first || first.type !== 'session.created' || id === KERNEL_STREAM) {
      throw serverErrors.error('SESSION_NOT_FOUND', {
        operation: 'session',
        failed_parameter: '$.sessionId',
        received_value: id,
        remediation: 'No session has that id; list them with _nodwyn/sessions/list (or `nodwyn log list`).',
      });
    }
    const workspace = String((first.payload as { workspace?: unknown }).workspace ?? '');
    const scope = await this.runtime.scope(existingWorkspace(workspace, id));
    scope.kernel.recover(id);
    return this.#serve(id, scope);
  }

  #serve(id: string, scope: AgentScope): LiveSession {
    const live = new LiveSession(id, scope, this.#personConfig);
    this.#live.set(id, live);
    return live;
  }

  #defaultScope(): Promise<AgentScope> {
    return this.runtime.scope(realpathSync(this.#defaultWorkspace));
  }
}

function existingWorkspace(workspace: string, id: string): string {
  try {
    return workspaceOf(workspace);
  } catch (error) {
    throw serverErrors.error(
      'WORKSPACE_MISSING',
      { operation: 'session/load', received_value: workspace, remediation: `Session ${id} worked in ${workspace}, which is gone; restore the folder, or fork the session (nodwyn fork) to continue elsewhere.` },
      error,
    );
  }
}
