import type { FrontendClient, SessionSummary } from '@nodwyn/protocol';
import { isLocalCommand, parseSlash } from '../commands/local-commands.js';
import type { Tone } from '../state/finished-item.js';
import type { PermissionRequest, PermissionResponse } from '../state/protocol-types.js';
import type { TuiAction } from '../state/tui-action.js';
import type { TuiStore } from '../state/tui-store.js';
import { describeError, remediationOf } from './describe-error.js';
import { EventFeed } from './event-feed.js';
import type { TuiArgs } from './launch-args.js';
import { PermissionAnswers, questionOf } from './permission-answers.js';
import { runLocalCommand } from './run-local-command.js';

/** Log events loaded when a session is continued: its tail; the rest stays in the log (`nodwyn log show`). */
export const TAIL_EVENTS = 200;

/** What a provider setup sends (`_nodwyn/providers/configure`). */
export type ProviderSetup = Parameters<FrontendClient['configureProvider']>[0];

/** How the controller is built. */
export interface TuiControllerOptions {
  readonly client: FrontendClient;
  readonly workspace: string;
  readonly store: TuiStore;
  /** How long client events gather before they are drawn together (ms). */
  readonly frameMs?: number;
}

/**
 * Everything the TUI does with its client: which session it shows (continued from its tail, or created
 * with the first prompt), prompts, cancels, questions, commands and setup. Beyond which session it shows
 * and the permission requests still open, it keeps nothing: what is shown lives in the store, and comes
 * from the log.
 */
export class TuiController {
  readonly client: FrontendClient;
  readonly workspace: string;
  readonly store: TuiStore;
  /** Resolves with the exit code once the person quits. */
  readonly exited: Promise<number>;
  #quit!: (code: number) => void;
  readonly #feed: EventFeed;
  readonly #unsubscribe: () => void;
  readonly #answers = new PermissionAnswers();
  #shown: string | undefined;
  /** True from a prompt's Enter until its request ends, so a second Enter cannot send another. */
  #prompting = false;
  #creating: Promise<string> | undefined;
  #disposed = false;

  constructor(options: TuiControllerOptions) {
    this.client = options.client;
    this.workspace = options.workspace;
    this.store = options.store;
    this.exited = new Promise((resolve) => (this.#quit = resolve));
    this.#feed = new EventFeed((events) => this.store.dispatch({ type: 'events', events, at: Date.now() }), () => this.#shown, options.frameMs ?? 16);
    this.#unsubscribe = this.client.onEvent((event) => this.#feed.push(event));
    this.client.onPermission((request, signal) => this.#ask(request, signal));
  }

  /** Dispatches a local action after the client events that came before it. */
  dispatch(action: TuiAction): void {
    this.#feed.flush();
    this.store.dispatch(action);
  }

  /** Opens what `args` ask for and loads what the editor and the setup need. */
  start(args: TuiArgs): void {
    if (args.unknown.length > 0) this.notice(`Ignored unknown arguments: ${args.unknown.join(' ')}`, 'warn');
    void this.#guard(async () => {
      const { providers, configured } = await this.client.listProviders();
      if (!configured && providers.length > 0) this.dispatch({ type: 'setup.required', providers });
    }, 'quiet');
    void this.#guard(async () => this.dispatch({ type: 'history.loaded', prompts: await this.client.promptHistory(this.workspace) }), 'quiet');
    if (args.session) void this.#guard(() => this.open(args.session!));
    else if (args.pick) void this.#guard(() => this.showPicker());
  }

  /** Prints one line (or a few) into the scrollback. */
  notice(text: string, tone: Tone = 'info'): void {
    this.dispatch({ type: 'notice', text, tone });
  }

  /**
   * Sends what the person typed: a TUI command runs here; anything else (an agent command such as
   * `/tools` included) is the prompt. Returns false when it could not be sent now (a turn runs), so the
   * editor keeps the text.
   */
  submit(text: string): boolean {
    const trimmed = text.trim();
    if (trimmed.length === 0) return false;
    const slash = parseSlash(trimmed);
    if (slash && isLocalCommand(slash.name)) {
      void this.#guard(() => runLocalCommand(this, slash.name, slash.input));
      return true;
    }
    const state = this.store.getState();
    if (state.turn !== 'idle' || this.#prompting) {
      this.notice('A turn is running: wait for its answer, or press Esc to cancel it. Your text is kept.', 'warn');
      return false;
    }
    const agentCommand = slash !== undefined && state.commands.some((c) => c.name === slash.name);
    this.#prompting = true;
    void this.#prompt(text, !agentCommand);
    return true;
  }

  async #prompt(text: string, logged: boolean): Promise<void> {
    try {
      const sessionId = await this.ensureSession();
      this.dispatch({ type: 'prompt.sent', text, logged });
      await this.client.prompt(sessionId, text);
    } catch (error) {
      // A turn that started logs its own end; a prompt refused before that is told here.
      if (this.store.getState().turn !== 'running') this.notice(`${describeError(error)} (Up brings your prompt back.)`, 'error');
    } finally {
      this.#prompting = false;
      this.dispatch({ type: 'prompt.ended' });
    }
  }

  /** Esc: ends the running turn at once (any attached client may). */
  cancelTurn(): void {
    const sessionId = this.#shown;
    if (!sessionId || this.store.getState().turn === 'idle') return;
    this.dispatch({ type: 'cancel.requested' });
    void this.#guard(() => this.client.cancel(sessionId));
  }

  /** Answers a question: through the handler when this client was asked, else as any attached client. */
  answer(callId: string, optionId: string): void {
    const question = this.store.getState().questions.find((q) => q.callId === callId);
    this.dispatch({ type: 'question.closed', callId });
    if (this.#answers.answer(callId, optionId) || !question) return;
    void this.#guard(async () => {
      const { accepted } = await this.client.answerConfirmation(question.sessionId, callId, optionId);
      if (!accepted) this.notice(`Another answer about ${question.tool} came first.`, 'dim');
    });
  }

  /** The session shown now, if any. */
  get sessionId(): string | undefined {
    return this.#shown;
  }

  /** The session to prompt: the one shown, or a new one in the workspace (created with the first prompt). */
  async ensureSession(): Promise<string> {
    if (this.#shown) return this.#shown;
    this.#creating ??= (async () => {
      const { sessionId } = await this.client.newSession(this.workspace);
      this.#show(sessionId, { running: false });
      await this.client.attach(sessionId, 0);
      return sessionId;
    })().finally(() => (this.#creating = undefined));
    return this.#creating;
  }

  /**
   * Shows `sessionId`, continued from its tail: its last `TAIL_EVENTS` log events, then everything live.
   * A session that cannot be attached (unknown, its workspace gone) is said so and left: the next prompt
   * starts a new one.
   */
  async open(sessionId: string): Promise<void> {
    const summary = (await this.client.listSessions({ workspace: this.workspace })).find((s) => s.sessionId === sessionId) ??
      (await this.client.listSessions()).find((s) => s.sessionId === sessionId);
    const head = summary?.events ?? 0;
    const fromSeq = Math.max(0, head - TAIL_EVENTS);
    this.#show(sessionId, { running: summary !== undefined && summary.state !== 'idle', ...(summary?.title ? { title: summary.title } : {}) });
    this.#feed.startReplay();
    let failure: unknown;
    try {
      await this.client.attach(sessionId, fromSeq);
    } catch (error) {
      failure = error;
    }
    // Drawn once, whether the attach finished or failed part way: what arrived is shown.
    const events = this.#feed.endReplay();
    if (this.#shown === sessionId) this.dispatch({ type: 'history', events, fromSeq, at: Date.now() });
    if (failure === undefined || this.#shown !== sessionId) return;
    this.notice(describeError(failure), 'error');
    this.leave();
  }

  /** Leaves the session shown; the next prompt starts a new one. */
  leave(): void {
    this.#release();
    this.dispatch({ type: 'session.left' });
  }

  /** This workspace's sessions, newest first. */
  sessions(): Promise<readonly SessionSummary[]> {
    return this.client.listSessions({ workspace: this.workspace });
  }

  async showPicker(): Promise<void> {
    this.dispatch({ type: 'picker.opened', sessions: await this.sessions() });
  }

  /** The picker's answer: a session to continue, or none (stay). */
  pick(sessionId: string | undefined): void {
    this.dispatch({ type: 'picker.closed' });
    if (sessionId && sessionId !== this.#shown) void this.#guard(() => this.open(sessionId));
  }

  /** Workspace paths for `@` completion; none when the agent cannot say. */
  completeFiles(prefix: string): Promise<readonly string[]> {
    return this.client.completeFiles(this.workspace, prefix, 20).catch(() => []);
  }

  /** First-run setup: configures the provider; resolves with what to tell the person, or rejects with it. */
  async configure(setup: ProviderSetup): Promise<string> {
    try {
      const result = await this.client.configureProvider(setup);
      this.dispatch({ type: 'setup.finished' });
      const key = result.secret ? `, its key in the keychain as ${result.secret}` : '';
      this.notice(`Using ${result.provider} with ${result.model}${key} (written to ${result.config}).`);
      return result.model;
    } catch (error) {
      throw new Error(remediationOf(error), { cause: error });
    }
  }

  toggleThinking(): void {
    this.dispatch({ type: 'thinking.toggled' });
  }

  quit(code = 0): void {
    this.#quit(code);
  }

  /** Lets go of the client (it stays open: the app owns it): no more events or questions come here. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#unsubscribe();
    this.client.onPermission(undefined);
    this.#feed.close();
    const shown = this.#shown;
    this.#release();
    if (shown) await this.client.detach(shown).catch(() => undefined);
  }

  #show(sessionId: string, opened: { running: boolean; title?: string }): void {
    if (this.#shown !== sessionId) this.#release();
    this.#shown = sessionId;
    this.dispatch({ type: 'session.opened', sessionId, ...opened });
    this.#feed.adopt(sessionId);
  }

  /** Stops showing the current session: its questions stay for other clients. */
  #release(): void {
    const previous = this.#shown;
    this.#shown = undefined;
    this.#answers.cancelAll();
    if (previous && !this.#disposed) void this.client.detach(previous).catch(() => undefined);
  }

  #ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionResponse> {
    const question = questionOf(request);
    if (request.sessionId !== this.#shown) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    const answer = this.#answers.wait(question, signal, () => this.dispatch({ type: 'question.closed', callId: question.callId }));
    if (!signal.aborted) this.dispatch({ type: 'question.asked', question });
    return answer;
  }

  /** Runs `body`; a failure becomes one line in the TUI (or nothing, for what the TUI can do without). */
  async #guard(body: () => Promise<unknown>, mode: 'notice' | 'quiet' = 'notice'): Promise<void> {
    try {
      await body();
    } catch (error) {
      if (mode === 'notice' && !this.#disposed) this.notice(describeError(error), 'error');
    }
  }
}
