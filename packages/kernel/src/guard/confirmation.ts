import {
  envelope,
  type ConfirmationAnswer,
  type ConfirmationRequest,
  type ConfirmationSubject,
  type Confirmer,
  type Envelope,
  type GuardCall,
  type PermissionOptionKind,
} from '@nodwyn/plugin-api';
import { PERMISSION_OPTION_KINDS } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';
import type { Approvals } from './approvals.js';

/** One question of a slot: what the stages that want a person said, and who may answer. */
export interface Question {
  readonly call: GuardCall;
  readonly reasons: readonly string[];
  readonly confirmer: Confirmer | undefined;
  /** The first `otherwise` of the confirm verdicts: the deny when nobody can answer. */
  readonly otherwise: Envelope | undefined;
  /** A secret would leave for an unbound place: only a person may answer, and never "always". */
  readonly security: boolean;
  /** Each secret class and where it would go (egress), never a value. */
  readonly subjects: readonly ConfirmationSubject[];
  /** What an "always" answer covers; computed only when a person is asked. */
  readonly effect: () => string;
  /** What the call would do, one line each (the primitive's preview); computed only when a person is asked. */
  readonly effects?: () => readonly string[] | undefined;
  /** The call's abort signal: a cancel while waiting decides the question. */
  readonly signal: AbortSignal | undefined;
}

/** What the question needs from the guard: the session's approvals, and a way to log about the call. */
export interface QuestionDeps {
  readonly approvals: Approvals;
  /** Appends a kernel event about the call (`call_id` and `name` are added). */
  readonly record: (type: string, fields: Record<string, unknown>) => void;
  /** Appends an approval event as it is (its payload names the call itself). */
  readonly remember: (type: 'approval.granted' | 'approval.refused', payload: Record<string, unknown>) => void;
}

/** How a question ended: granted, or denied with the envelope the call ends in. */
export type Decision = { readonly ok: true } | { readonly ok: false; readonly envelope: Envelope };

type Answer = { readonly granted: boolean; readonly by: string; readonly option?: PermissionOptionKind };

const CANCELLED: Answer = { granted: false, by: 'cancel' };

/**
 * Decides a question (docs/architecture.md §3, §9). Nobody to ask (no confirmer, or a security question
 * and a blanket `--yes`): denied, logged as decided by `nobody`. Otherwise the session's remembered
 * "always" answer for the call's effect decides, logged as decided by `approval` (never for a security
 * question); else the question is logged (`confirmation.requested`), put to the confirmer raced against
 * the call's abort signal, and its answer logged (`confirmation.decided`), with an "always" answer to a
 * question that is not a security one remembered as `approval.granted` or `approval.refused`. A confirmer
 * that throws, or answers something it should not, refuses (fail closed).
 */
export async function decide(question: Question, deps: QuestionDeps): Promise<Decision> {
  const { call, confirmer, security } = question;
  const reason = question.reasons.join('; ');
  // A blanket grant (--yes) was given without seeing this call; a secret leaving needs someone who does.
  if (!confirmer || (security && confirmer.blanket === true)) {
    deps.record('confirmation.decided', { granted: false, by: 'nobody' });
    return { ok: false, envelope: question.otherwise ?? nobodyEnvelope(call, reason, security) };
  }
  const effect = question.effect();
  const remembered = security ? undefined : deps.approvals.of(call.session, effect);
  if (remembered !== undefined) {
    deps.record('confirmation.decided', { granted: remembered === 'granted', by: 'approval' });
    return remembered === 'granted' ? { ok: true } : { ok: false, envelope: refusedEnvelope(call, effect) };
  }
  const subjects = question.subjects.length > 0 ? { subjects: question.subjects } : {};
  const lines = question.effects?.();
  const effects = lines ? { effects: lines } : {};
  deps.record('confirmation.requested', { tier: call.tier, reason, effect, ...(security ? { security } : {}), ...subjects, ...effects });
  const request: ConfirmationRequest = {
    session: call.session,
    callId: call.id,
    name: call.name,
    tier: call.tier,
    reason,
    args: call.args,
    effect,
    ...(security ? { security } : {}),
    ...(question.signal ? { signal: question.signal } : {}),
    ...subjects,
    ...effects,
  };
  const answer = await ask(confirmer, request, question.signal);
  deps.record('confirmation.decided', { granted: answer.granted, by: answer.by, ...(answer.option ? { option: answer.option } : {}) });
  if (!security && answer.option === 'allow_always') deps.remember('approval.granted', { effect, name: call.name, call_id: call.id, by: answer.by });
  if (!security && answer.option === 'reject_always') deps.remember('approval.refused', { effect, name: call.name, call_id: call.id, by: answer.by });
  if (answer.granted) return { ok: true };
  return { ok: false, envelope: answer === CANCELLED ? cancelledEnvelope(call) : declinedEnvelope(call, reason) };
}

/** The confirmer's answer, or `CANCELLED` once the signal fires first (the confirmer may never settle). */
function ask(confirmer: Confirmer, request: ConfirmationRequest, signal: AbortSignal | undefined): Promise<Answer> {
  if (signal?.aborted) return Promise.resolve(CANCELLED);
  return new Promise<Answer>((resolve) => {
    const onAbort = (): void => resolve(CANCELLED);
    signal?.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => confirmer.confirm(request))
      .then(
        (answer) => resolve(answerOf(answer)),
        () => resolve({ granted: false, by: 'confirmer' }),
      )
      .finally(() => signal?.removeEventListener('abort', onAbort));
  });
}

/**
 * A confirmer's answer in one shape. `true` alone grants, by `confirmer`. An option that contradicts
 * `granted` (an allow option on a refusal, or the reverse) makes the answer a refusal with no option, and
 * so does anything that is not an answer.
 */
function answerOf(answer: boolean | ConfirmationAnswer | undefined): Answer {
  if (typeof answer === 'boolean') return { granted: answer, by: 'confirmer' };
  if (typeof answer !== 'object' || answer === null || typeof answer.granted !== 'boolean') return { granted: false, by: 'confirmer' };
  const by = typeof answer.by === 'string' && answer.by.length > 0 ? answer.by.slice(0, 200) : 'confirmer';
  const option = PERMISSION_OPTION_KINDS.find((kind) => kind === answer.option);
  if (option === undefined) return { granted: answer.granted, by };
  if (option.startsWith('allow') !== answer.granted) return { granted: false, by };
  return { granted: answer.granted, by, option };
}

function nobodyEnvelope(call: GuardCall, reason: string, security: boolean): Envelope {
  return envelope({
    category: 'CONFIRMATION_REQUIRED',
    code: KernelCodes.CONFIRMATION_REQUIRED,
    operation: call.name,
    remediation: security
      ? `${reason}, so it needs a person's confirmation at a terminal; --yes does not give it. Ask the user to bind the secret to this destination (nodwyn bind add) or to run interactively.`
      : `${reason}, so it needs a person's confirmation and none was available. Use a read-only alternative, or ask the user to rerun with --yes or to allow this command in config.`,
  });
}

function declinedEnvelope(call: GuardCall, reason: string): Envelope {
  return envelope({
    category: 'CONFIRMATION_REQUIRED',
    code: KernelCodes.CONFIRMATION_DECLINED,
    operation: call.name,
    remediation: `The user declined: ${reason}. Do not retry the same call; ask the user how to proceed.`,
  });
}

function refusedEnvelope(call: GuardCall, effect: string): Envelope {
  return envelope({
    category: 'CONFIRMATION_REQUIRED',
    code: KernelCodes.APPROVAL_REFUSED,
    operation: call.name,
    retryable: 'never',
    expected: `a call outside ${effect}`,
    remediation: `The person refused calls like this one (${effect}) for the rest of this session, so it was not run and they were not asked again. Do not retry it; do something else, or ask the user how to proceed.`,
  });
}

function cancelledEnvelope(call: GuardCall): Envelope {
  return envelope({
    category: 'CANCELLED',
    code: KernelCodes.CONFIRMATION_CANCELLED,
    operation: call.name,
    remediation: `${call.name} was cancelled while it waited for a person's confirmation; it did not run.`,
  });
}
