import type { ApplyResult, AssistantMessage, ContextPart, Envelope, Judge, LoggedContextPart, ModelMessage, PlanOutcome, PlanReview, PlanVerdict, SummaryOutcome, SummaryRequest, ToolCallResult, TurnContext, TurnFloor, TurnPlans, WindowEntry, WindowEntryKind, WindowView } from '@nodwyn/plugin-api';
import { EnvelopeError } from '@nodwyn/plugin-api';

/** What a fake tool call answers: ok, or denied with an envelope of this code. */
export type ToolAnswer = 'ok' | string;

/**
 * A floor that answers `callModel` from a list and records every call the strategy makes, in order,
 * including the plan hooks. Tool calls answer `ok` unless `toolAnswers` names a code for their id.
 */
export class RecordingFloor implements TurnFloor {
  readonly session = 'session-under-test';
  readonly signal: AbortSignal = new AbortController().signal;
  readonly calls: string[] = [];
  readonly ran: AssistantMessage[] = [];
  readonly outcomes: PlanOutcome[] = [];
  /** The brief's parts as `context.add` logged them (each id once). */
  readonly brief: LoggedContextPart[] = [];
  /** How many parts the brief held at each `callModel`. */
  readonly briefAtCalls: number[] = [];
  readonly summaries: SummaryRequest[] = [];
  /** Every `summarize` fails (a model error), as the floor reports it. */
  summaryFails = false;
  #approved = false;

  constructor(
    private readonly replies: (AssistantMessage | Error)[],
    private readonly options: { toolFailure?: Error; toolAnswers?: Record<string, ToolAnswer>; person?: boolean; window?: ModelMessage[]; contributed?: ContextPart[]; view?: WindowView } = {},
  ) {}

  async window() {
    this.calls.push('window');
    return this.options.window ?? [{ role: 'user' as const, text: 'the ask' }];
  }

  windowView(): WindowView {
    return this.options.view ?? { entries: [], tokens: 0, budget: 1000 };
  }

  async summarize(request: SummaryRequest): Promise<SummaryOutcome> {
    this.calls.push(`summarize(${request.fromSeq}..${request.toSeq})`);
    this.summaries.push(request);
    if (this.summaryFails) return { ok: false, envelope: { status: 'error', category: 'INTERNAL', code: 'PROVIDER_FAILED' } as Envelope };
    return { ok: true, seq: 0, tokens: 0 };
  }

  tools() {
    this.calls.push('tools');
    return [];
  }

  async callModel(): Promise<AssistantMessage> {
    this.calls.push('callModel');
    this.briefAtCalls.push(this.brief.length);
    const reply = this.replies.shift();
    if (reply === undefined) throw new Error('the strategy called the model more often than the test expects');
    if (reply instanceof Error) throw reply;
    return reply;
  }

  async runToolCalls(message: AssistantMessage): Promise<readonly ToolCallResult[]> {
    this.calls.push(`runToolCalls(${message.toolCalls.map((call) => call.id).join(',')})`);
    this.ran.push(message);
    if (this.options.toolFailure) throw this.options.toolFailure;
    return message.toolCalls.map((call) => {
      const answer = this.options.toolAnswers?.[call.id] ?? 'ok';
      if (answer === 'ok' || this.#approved) return { call, ok: true, content: `result of ${call.id}` };
      const envelope = { status: 'error', category: 'PRECONDITION_FAILED', code: answer } as Envelope;
      return { call, ok: false, content: JSON.stringify(envelope), envelope };
    });
  }

  async callPrimitive(name: string): Promise<ApplyResult> {
    this.calls.push(`callPrimitive(${name})`);
    return { ok: true, content: '', truncated: false, taint: [] };
  }

  // Context calls are not recorded in `calls`: the turn-shape assertions stay about the model and the tools.
  readonly context: TurnContext = {
    contributed: async () => this.options.contributed ?? [],
    add: (parts) => {
      for (const part of parts) {
        if (!this.brief.some((p) => p.id === part.id)) this.brief.push({ ...part, seq: this.brief.length + 1, tokens: Math.ceil(part.text.length / 4) });
      }
      return this.brief;
    },
    logged: () => this.brief,
  };

  readonly plans: TurnPlans = {
    approved: () => this.#approved,
    request: (reason) => void this.calls.push(`plans.request(${reason})`),
    record: (outcome) => {
      this.calls.push(`plans.record(${outcome.by}, ${outcome.round}, ${outcome.approved})`);
      this.outcomes.push(outcome);
      if (outcome.approved) this.#approved = true;
    },
    confirm: async () => {
      this.calls.push('plans.confirm');
      return this.options.person ?? false;
    },
  };
}

export const answer = (text: string): AssistantMessage => ({ text, toolCalls: [], stopReason: 'end_turn' });

export const withCalls = (...ids: string[]): AssistantMessage => ({
  text: '',
  toolCalls: ids.map((id) => ({ id, name: 'read_file', args: { path: id } })),
  stopReason: 'tool_use',
});

/** A judge whose gate and plan scores come from lists; an `Error` entry is thrown. It records what it was shown. */
export class FakeJudge implements Judge {
  readonly reviews: PlanReview[] = [];
  readonly asks: string[] = [];

  constructor(
    private readonly scores: (number | Error)[] = [],
    private readonly gates: (boolean | Error)[] = [],
    readonly settings: { configured?: boolean; content?: Judge['content']; planMode?: boolean } = {},
  ) {}

  get configured() {
    return this.settings.configured ?? true;
  }

  get content() {
    return this.settings.content ?? 'plan';
  }

  get planMode() {
    return this.settings.planMode ?? false;
  }

  async gate(_session: string, ask: string): Promise<boolean> {
    this.asks.push(ask);
    const next = this.gates.shift();
    if (next === undefined) throw new Error('the strategy asked the gate more often than the test expects');
    if (next instanceof Error) throw next;
    return next;
  }

  async scorePlan(review: PlanReview): Promise<PlanVerdict> {
    this.reviews.push(review);
    const next = this.scores.shift();
    if (next === undefined) throw new Error('the strategy asked for more scores than the test expects');
    if (next instanceof Error) throw next;
    return { approved: next >= 0.7, score: next, feedback: next >= 0.7 ? '' : `revise draft ${review.round}` };
  }

  async scoreEgress(): Promise<never> {
    throw new Error('the loop never scores egress');
  }
}

export const judgeFailure = () => new EnvelopeError({ category: 'UPSTREAM_UNAVAILABLE', code: 'JUDGE_FAILED', remediation: 'The judge failed.' });

/** A window entry of `session-under-test` at `seq` with `tokens`. */
export function entry(kind: WindowEntryKind, seq: number, tokens: number, toSeq = seq): WindowEntry {
  const message: ModelMessage =
    kind === 'assistant'
      ? { role: 'assistant', text: '', toolCalls: [{ id: `c${seq}`, name: 'read_file', args: {} }] }
      : kind === 'tool'
        ? { role: 'tool', callId: `c${seq - 1}`, name: 'read_file', text: 'r', isError: false }
        : { role: 'user', text: kind };
  return { message, kind, session: 'session-under-test', fromSeq: seq, toSeq, tokens };
}

/** A small window that fits: an ask, two old steps (seq 3..6), then `KEEP_STEPS` newer ones. */
export function twoSteps(): WindowView {
  const entries = [entry('user', 1, 10), entry('assistant', 3, 10), entry('tool', 4, 10), entry('assistant', 5, 10), entry('tool', 6, 10)];
  for (let seq = 7; seq < 15; seq += 2) entries.push(entry('assistant', seq, 10), entry('tool', seq + 1, 10));
  return { entries, tokens: entries.reduce((sum, e) => sum + e.tokens, 0), budget: 1000 };
}
