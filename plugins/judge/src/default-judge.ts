import { isEnvelopeError, toEnvelope, type EgressSituation, type EgressVerdict, type Judge, type PlanReview, type PlanVerdict } from '@nodwyn/plugin-api';
import { consultJudge, type ConsultDeps } from './consult-judge.js';
import { judgeError, PLUGIN_NAME, type JudgeErrorCode } from './errors.js';
import { GATE_ANSWER, readAnswer, SCORE_ANSWER } from './judge-answer.js';
import { egressPrompt, gatePrompt, planPrompt, type Sent } from './judge-prompts.js';

/** What the judge needs: model calls, the text layer, and a place to log its scores. */
export interface JudgeDeps extends ConsultDeps {
  /** Appends a `judge.scored` event to the session. */
  readonly record: (session: string, payload: Record<string, unknown>) => void;
}

type Seam = 'gate' | 'plan' | 'egress';

/** Failures that happen before anything leaves: the log says nothing was sent. */
const NOTHING_SENT: ReadonlySet<string> = new Set<JudgeErrorCode>(['JUDGE_NOT_CONFIGURED', 'JUDGE_CONTENT_NONE', 'JUDGE_REDACTION_FAILED']);

/**
 * The stock `Judge`: every call is one question to the configured provider, scored in code against
 * `[judge] threshold`, and logged as a `judge.scored` event whatever happens. Every failure is thrown
 * after it is logged; callers treat it as "no".
 */
export class DefaultJudge implements Judge {
  constructor(private readonly deps: JudgeDeps) {}

  get configured(): boolean {
    return this.deps.config.provider !== undefined;
  }

  get content() {
    return this.deps.config.content;
  }

  get planMode(): boolean {
    return this.deps.config.planMode;
  }

  async gate(session: string, ask: string, signal: AbortSignal): Promise<boolean> {
    if (this.configured && this.content === 'none') {
      this.#record(session, 'gate', 'nothing', { decision: 'skipped' });
      return false;
    }
    const prompt = gatePrompt(ask);
    return this.#scored(session, 'gate', prompt.sent, {}, async () => {
      const answer = readAnswer(await this.#ask(session, 'judge.gate', prompt.text, signal), GATE_ANSWER, 'judge.gate');
      return { result: answer.plan_needed, fields: { decision: answer.plan_needed ? 'plan' : 'no-plan' } };
    });
  }

  async scorePlan(review: PlanReview, signal: AbortSignal): Promise<PlanVerdict> {
    const content = this.content;
    const round = { round: review.round };
    if (content === 'none') {
      return this.#scored(review.session, 'plan', 'nothing', round, async () => {
        throw judgeError('JUDGE_CONTENT_NONE', {
          operation: 'judge.plan',
          failed_parameter: '$.judge.content',
          received_value: 'none',
          remediation: 'The judge may not see plans ([judge] content = "none"), so it cannot score one; the person approves plans instead.',
        });
      });
    }
    const prompt = planPrompt(review, content);
    return this.#scored(review.session, 'plan', prompt.sent, round, async () => {
      const { score, feedback } = readAnswer(await this.#ask(review.session, 'judge.plan', prompt.text, signal), SCORE_ANSWER, 'judge.plan');
      const approved = score >= this.deps.config.threshold;
      return { result: { approved, score, feedback: approved ? '' : feedback }, fields: { score, decision: approved ? 'approved' : 'revise' } };
    });
  }

  async scoreEgress(situation: EgressSituation, signal: AbortSignal): Promise<EgressVerdict> {
    const prompt = egressPrompt(situation);
    return this.#scored(situation.session, 'egress', prompt.sent, {}, async () => {
      const { score } = readAnswer(await this.#ask(situation.session, 'judge.egress', prompt.text, signal), SCORE_ANSWER, 'judge.egress');
      const allow = score >= this.deps.config.threshold;
      return { result: { allow, score }, fields: { score, decision: allow ? 'allow' : 'confirm' } };
    });
  }

  #ask(session: string, operation: string, text: string, signal: AbortSignal): Promise<string> {
    return consultJudge(this.deps, { session, operation, text, signal });
  }

  /** Runs one judge call and logs its outcome: the score and decision, or the failure's code. */
  async #scored<T>(session: string, seam: Seam, sent: Sent, extra: Record<string, unknown>, run: () => Promise<{ result: T; fields: Record<string, unknown> }>): Promise<T> {
    let outcome: { result: T; fields: Record<string, unknown> };
    try {
      outcome = await run();
    } catch (error) {
      const env = toEnvelope(error, { operation: `judge.${seam}`, plugin: PLUGIN_NAME });
      const cause = error instanceof Error && isEnvelopeError(error.cause) ? error.cause.envelope.code : undefined;
      const reached = !NOTHING_SENT.has(env.code ?? '');
      this.#record(session, seam, reached ? sent : 'nothing', { ...extra, decision: 'failed', code: env.code, ...(cause ? { cause } : {}) });
      throw error;
    }
    this.#record(session, seam, sent, { ...extra, ...outcome.fields });
    return outcome.result;
  }

  #record(session: string, seam: Seam, sent: Sent, fields: Record<string, unknown>): void {
    const { provider, model, content } = this.deps.config;
    this.deps.record(session, { seam, content, sent, ...(provider ? { provider } : {}), ...(model ? { model } : {}), ...fields });
  }
}
