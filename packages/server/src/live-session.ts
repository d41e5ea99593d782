import type { AvailableCommand, PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import type { LoopStrategy } from '@nodwyn/plugin-api';
import type { FrontendEvent, LogEvent, PromptBlock, SessionState } from '@nodwyn/protocol';
import { DEFAULT_BUDGETS, type EventLog, type RunResult } from '@nodwyn/kernel';
import { titleFrom, type Config } from '@nodwyn/runtime';
import { runAgentCommand } from './agent-command-runner.js';
import type { AgentScope } from './agent-runtime.js';
import type { ClientConnection } from './client-connection.js';
import { ConfirmationBroker } from './confirmation-broker.js';
import { serverErrors } from './errors.js';
import { promptText } from './prompt-text.js';
import { SessionProjector, type Totals } from './session-projector.js';
import { sessionChoice } from './session-choice.js';
import { availableCommands, slashCommand } from './slash-commands.js';
import { promptResponse } from './stop-reason.js';
import { Subscribers } from './subscribers.js';
import { toolView } from './tool-view.js';

/** Events sent per page of a replay; between pages the transport drains, so a long session never stalls others. */
const REPLAY_PAGE = 256;

type Chunk = { kind: 'agent_message_chunk' | 'agent_thought_chunk'; text: string };

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A session the agent serves: its clients, its one running prompt, its pending confirmations, and the
 * projection of its log into ACP updates. Streamed deltas that arrive together are sent as one chunk
 * (the next tick at the latest), so a fast model never floods a client with one frame per token.
 */
export class LiveSession {
  readonly subscribers: Subscribers;
  readonly broker: ConfirmationBroker;
  readonly #projector: SessionProjector;
  #running: { readonly controller: AbortController; readonly prompter: ClientConnection } | undefined;
  #windowTokens = DEFAULT_BUDGETS.windowTokens;
  #lastStop: string | undefined;
  #title: string | undefined;
  #chunks: Chunk[] = [];
  #flushScheduled = false;

  #scope: AgentScope;

  /** @param personConfig the person's config.toml as it is now, for the commands that read it (`/model`). */
  constructor(
    readonly id: string,
    scope: AgentScope,
    private readonly personConfig: () => Config,
  ) {
    this.#scope = scope;
    this.subscribers = new Subscribers(id);
    const kernel = scope.kernel;
    this.#projector = new SessionProjector(scope.workspace, (name) => this.scope.kernel.primitives.get(name)?.kind ?? 'other', () => this.#windowTokens, (seq) => totalsOf(kernel.log, id, seq));
    this.broker = new ConfirmationBroker(id, (callId) => {
      const call = this.#projector.call(callId);
      if (!call) return undefined;
      return { toolCallId: call.toolCallId, title: toolView(call.name, call.kind, call.args, scope.workspace).title, kind: call.kind };
    });
    this.#startFromTail(kernel.log);
  }

  /**
   * What a live session needs of its past, read from its tail in a few indexed queries, never its whole
   * history: the latest title, and the latest assistant message (its calls, which outcomes still to come
   * may answer, and how it stopped). The cost totals are read when a usage update first needs them.
   */
  #startFromTail(log: EventLog): void {
    const latest = (type: string): LogEvent | undefined => {
      const seq = log.lastSeqOf(this.id, [type]);
      return seq === undefined ? undefined : log.read(this.id, seq, seq)[0];
    };
    const title = latest('session.titled')?.payload.title ?? log.read(this.id, 1, 1)[0]?.payload.title;
    if (typeof title === 'string') this.#title = title;
    const assistant = latest('message.assistant');
    if (assistant) {
      this.#projector.learnCalls(assistant);
      this.#lastStop = typeof assistant.payload.stop_reason === 'string' ? assistant.payload.stop_reason : undefined;
    }
  }

  /** The kernel scope of the session's workspace (a new one after the daemon's plugins restarted). */
  get scope(): AgentScope {
    return this.#scope;
  }

  /** Serves the session from `scope`, its workspace's scope re-booted (settings saved); only while no prompt runs. */
  rescope(scope: AgentScope): void {
    this.#scope = scope;
  }

  get state(): SessionState {
    if (!this.#running) return 'idle';
    return this.broker.pending().length > 0 ? 'waiting' : 'running';
  }

  /** The latest title the log gives the session. */
  get title(): string | undefined {
    return this.#title;
  }

  /** The slash commands this session answers itself: the agent's own, then its plugins'. */
  availableCommands(): AvailableCommand[] {
    return availableCommands(this.scope.agentCommands());
  }

  /** Called with each event of this session as the log commits it. */
  onLog(event: LogEvent): void {
    this.#flush();
    const echoOf = event.type === 'message.user' ? this.#running?.prompter : undefined;
    for (const update of this.#learn(event)) this.subscribers.update(update, event.seq, echoOf);
    this.subscribers.log(event);
  }

  /**
   * Runs one prompt to its end. A second prompt while one runs is refused with `SESSION_BUSY`; the
   * prompting client is asked confirmations first, and every attached client is told about them.
   */
  async prompt(connection: ClientConnection, blocks: readonly PromptBlock[]): Promise<PromptResponse> {
    if (this.#running) {
      throw serverErrors.error('SESSION_BUSY', {
        operation: 'session/prompt',
        received_value: this.id,
        remediation: `Session ${this.id} is running a prompt; wait for its answer, or cancel it (session/cancel), then send this one.`,
      });
    }
    const text = promptText(blocks);
    const controller = new AbortController();
    this.#running = { controller, prompter: connection };
    this.subscribers.add(connection);
    try {
      const command = slashCommand(text, this.availableCommands());
      if (command) return await this.#command(command.name, command.input, controller.signal, connection);
      if (this.#title === undefined) this.#append('session.titled', { title: titleFrom(text) });
      const result = await this.#run(connection, controller.signal, text);
      return promptResponse(result, this.#lastStop);
    } finally {
      this.#running = undefined;
    }
  }

  /** One turn with the session's provider and budgets: the person's `prompt`, or a command's `strategy` and none. */
  async #run(connection: ClientConnection, signal: AbortSignal, prompt: string | undefined, strategy?: LoopStrategy): Promise<RunResult> {
    const setup = await this.scope.turn(sessionChoice(this.scope.kernel, this.id));
    this.#windowTokens = setup.budgets.windowTokens ?? DEFAULT_BUDGETS.windowTokens;
    const result = await this.scope.kernel.run({
      session: this.id,
      ...(prompt !== undefined ? { prompt } : {}),
      provider: setup.provider,
      ...(setup.summaryProvider ? { summaryProvider: setup.summaryProvider } : {}),
      strategy: strategy ?? setup.strategy,
      strategyOwner: strategy ? undefined : setup.strategyOwner,
      budgets: setup.budgets,
      signal,
      confirmer: this.broker.confirmer({
        prompter: connection.label,
        tell: (request) => this.subscribers.confirmation(request),
        ask: (request, asked) => connection.requestPermission(request, asked),
      }),
      files: connection.files(this.id),
      onEvent: (event) => this.#onFrontendEvent(event),
    });
    this.#flush();
    return result;
  }

  /** Ends the running prompt as `cancelled` (any attached client may). */
  cancel(): void {
    this.#running?.controller.abort();
  }

  /** Resolves once no prompt runs (for a clean shutdown). */
  async settled(): Promise<void> {
    while (this.#running) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /**
   * Sends `connection` the session's log events after `fromSeq` as `_nodwyn/log`, then keeps it attached
   * for every live update; live deliveries that come meanwhile wait and follow, none twice. Returns the
   * last seq replayed. Questions still pending are put to the new client too.
   */
  async attach(connection: ClientConnection, fromSeq: number): Promise<number> {
    this.subscribers.add(connection, true);
    return this.#replay(connection, fromSeq, (event) => connection.log(this.id, event), () => {
      for (const question of this.broker.pending()) connection.confirmation(question);
    });
  }

  /** `session/load`: the whole conversation as `session/update`s, then live updates. */
  async load(connection: ClientConnection): Promise<void> {
    this.subscribers.add(connection);
    const projector = new SessionProjector(this.scope.workspace, (name) => this.scope.kernel.primitives.get(name)?.kind ?? 'other', () => this.#windowTokens);
    await this.#replay(connection, 0, (event) => {
      for (const update of projector.project(event, 'replay')) connection.update(this.id, update);
    });
  }

  async #replay(connection: ClientConnection, fromSeq: number, send: (event: LogEvent) => void, after?: () => void): Promise<number> {
    const log = this.scope.kernel.log;
    this.subscribers.hold(connection);
    const head = log.head(this.id)?.seq ?? 0;
    try {
      for (let from = fromSeq + 1; from <= head; from += REPLAY_PAGE) {
        for (const event of log.read(this.id, from, Math.min(head, from + REPLAY_PAGE - 1))) send(event);
        if (connection.closed) break;
        await nextTick();
      }
    } finally {
      this.subscribers.release(connection, head);
    }
    after?.();
    return head;
  }

  /** A slash command: its text (through the text layers) to every client, its envelope in `_meta` when it failed. */
  async #command(name: string, input: string, signal: AbortSignal, connection: ClientConnection): Promise<PromptResponse> {
    const turn = async (strategy: LoopStrategy) => this.#run(connection, signal, undefined, strategy);
    const outcome = await runAgentCommand(name, { session: this.id, scope: this.scope, input, signal, personConfig: this.personConfig, turn });
    this.subscribers.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: this.scope.kernel.shown(this.id, outcome.text) } });
    if (signal.aborted) return { stopReason: 'cancelled' };
    return outcome.envelope ? { stopReason: 'end_turn', _meta: { nodwyn: { envelope: outcome.envelope } } } : { stopReason: 'end_turn' };
  }

  #append(type: string, payload: Record<string, unknown>): void {
    this.scope.kernel.append(this.id, { type, actor: 'user', payload });
  }

  /** What an event teaches the session (its calls, totals, title, last stop), and the updates it stands for. */
  #learn(event: LogEvent): SessionUpdate[] {
    const p = event.payload as Record<string, unknown>;
    if (event.type === 'message.assistant') this.#lastStop = typeof p.stop_reason === 'string' ? p.stop_reason : undefined;
    if ((event.type === 'session.titled' || event.type === 'session.created') && typeof p.title === 'string') this.#title = p.title;
    return this.#projector.project(event, 'live');
  }

  #onFrontendEvent(event: FrontendEvent): void {
    if (event.type === 'delta.text') this.#chunk('agent_message_chunk', event.text);
    else if (event.type === 'delta.thought') this.#chunk('agent_thought_chunk', event.text);
    else if (event.type === 'tool.started') {
      this.#flush();
      for (const update of this.#projector.started(event.call_id)) this.subscribers.update(update);
    } else if (event.type === 'tool.progress') {
      const { progress, total, message } = event;
      const view = { progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
      for (const update of this.#projector.progress(event.call_id, view)) this.subscribers.update(update);
    }
  }

  #chunk(kind: Chunk['kind'], text: string): void {
    const last = this.#chunks.at(-1);
    if (last?.kind === kind) last.text += text;
    else this.#chunks.push({ kind, text });
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    const chunks = this.#chunks;
    if (chunks.length === 0) return;
    this.#chunks = [];
    for (const { kind, text } of chunks) this.subscribers.update({ sessionUpdate: kind, content: { type: 'text', text } });
  }
}

/** A session's tokens and cost before event `seq`, from its assistant messages (read only when first needed). */
function totalsOf(log: EventLog, session: string, seq: number): Totals {
  const totals: Totals = { input: 0, output: 0, costUsd: 0 };
  for (const event of log.readTypes(session, ['message.assistant'], 1, seq - 1)) {
    const p = event.payload as { usage?: { input?: number; output?: number }; cost_usd?: number };
    totals.input += p.usage?.input ?? 0;
    totals.output += p.usage?.output ?? 0;
    totals.costUsd += p.cost_usd ?? 0;
  }
  return totals;
}
