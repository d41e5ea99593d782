import type { PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import type { FrontendEvent, LogEvent, PromptBlock, SessionState } from '@nodwyn/protocol';
import { DEFAULT_BUDGETS } from '@nodwyn/kernel';
import { titleFrom } from '@nodwyn/runtime';
import type { AgentScope } from './agent-runtime.js';
import type { ClientConnection } from './client-connection.js';
import { ConfirmationBroker } from './confirmation-broker.js';
import { serverErrors } from './errors.js';
import { promptText } from './prompt-text.js';
import { SessionProjector } from './session-projector.js';
import { slashCommand } from './slash-commands.js';
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

  constructor(
    readonly id: string,
    readonly scope: AgentScope,
  ) {
    this.subscribers = new Subscribers(id);
    const kernel = scope.kernel;
    this.#projector = new SessionProjector(scope.workspace, (name) => kernel.primitives.get(name)?.kind ?? 'other', () => this.#windowTokens);
    this.broker = new ConfirmationBroker(id, (callId) => {
      const call = this.#projector.call(callId);
      if (!call) return undefined;
      return { toolCallId: call.toolCallId, title: toolView(call.name, call.kind, call.args, scope.workspace).title, kind: call.kind };
    });
    for (const event of kernel.log.read(id)) this.#learn(event);
  }

  get state(): SessionState {
    if (!this.#running) return 'idle';
    return this.broker.pending().length > 0 ? 'waiting' : 'running';
  }

  /** The latest title the log gives the session. */
  get title(): string | undefined {
    return this.#title;
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
      const command = slashCommand(text);
      if (command) return this.#command(command.name, command.input);
      const setup = await this.scope.turn();
      this.#windowTokens = setup.budgets.windowTokens ?? DEFAULT_BUDGETS.windowTokens;
      if (this.#title === undefined) this.#append('session.titled', { title: titleFrom(text) });
      const result = await this.scope.kernel.run({
        session: this.id,
        prompt: text,
        provider: setup.provider,
        strategy: setup.strategy,
        strategyOwner: setup.strategyOwner,
        budgets: setup.budgets,
        signal: controller.signal,
        confirmer: this.broker.confirmer({
          prompter: connection.label,
          tell: (request) => this.subscribers.confirmation(request),
          ask: (request, signal) => connection.requestPermission(request, signal),
        }),
        files: connection.files(this.id),
        onEvent: (event) => this.#onFrontendEvent(event),
      });
      this.#flush();
      return promptResponse(result, this.#lastStop);
    } finally {
      this.#running = undefined;
    }
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

  #command(name: string, input: string): PromptResponse {
    if (name === 'title') {
      const title = titleFrom(input);
      if (title.length === 0) return this.#say('Give the title after the command: /title Fix the parser.');
      this.#append('session.titled', { title });
      return this.#say(`Title set: ${title}`);
    }
    const tools = this.scope.kernel.primitives.list().filter((p) => p.visibility === 'model');
    return this.#say(tools.map((t) => `- ${t.name} (${t.tier}): ${t.description.split('\n')[0]}`).join('\n'));
  }

  #say(text: string): PromptResponse {
    this.subscribers.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: this.scope.kernel.shown(this.id, text) } });
    return { stopReason: 'end_turn' };
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
