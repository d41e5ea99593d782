import type { Envelope, PermissionOptionKind } from '@nodwyn/protocol';
import type { EgressTarget } from './egress.js';
import type { Tier, ToolResult, Visibility } from './primitive.js';

/** The guard's slots, in the order they run. The kernel owns `execute`; plugins add stages to the rest. */
export const GUARD_SLOTS = ['resolve', 'preflight', 'policy', 'egress', 'execute', 'ingress', 'log'] as const;
/** A guard slot. */
export type GuardSlot = (typeof GUARD_SLOTS)[number];

/** A call on its way through the guard. */
export interface GuardCall {
  readonly id: string;
  readonly session: string;
  readonly name: string;
  readonly args: unknown;
  /** The tier of this call (the primitive's `classify`, else its `tier`). */
  readonly tier: Tier;
  readonly visibility: Visibility;
  readonly owner: string;
  readonly egress: boolean;
  /** What an egress primitive will send (its `egressTargets`), empty otherwise. */
  readonly targets: readonly EgressTarget[];
  /** `model` for the model's own calls, `host` for nested calls from primitives or sandboxes. */
  readonly origin: 'model' | 'host';
  /** Taint tags the arguments carry. */
  readonly taint: readonly string[];
}

/**
 * A check stage's answer. `confirm` asks the person (or `--yes`); when nobody can answer, the call is
 * denied with `otherwise`, or `CONFIRMATION_REQUIRED` when the stage gave none.
 */
export type Verdict =
  | { readonly kind: 'allow' }
  | {
      readonly kind: 'deny';
      readonly envelope: Envelope;
      /** The deny depends on a match against remembered secret values (see `Verdict` `strike`). */
      readonly strike?: boolean;
    }
  /**
   * `security`: a secret or tainted value would leave for a place no binding names. Only a person at a
   * front end may answer it; a blanket grant (`--yes`) declines it.
   */
  | {
      readonly kind: 'confirm';
      readonly reason: string;
      readonly otherwise?: Envelope;
      readonly security?: boolean;
      /** For egress: which secret class would go where (never a value); shown to the person and logged. */
      readonly subjects?: readonly ConfirmationSubject[];
      /**
       * The question exists only because a value matched a remembered secret (`TaintTracker.matches`):
       * a denied call then tells a probing model which of its strings matched, so the kernel counts it
       * as a strike (`security.withheld`) against the session's limit.
       */
      readonly strike?: boolean;
    };

/** A stage that may stop a call before it runs. A stage that throws denies. */
export interface CheckStage {
  readonly name: string;
  readonly slot: 'resolve' | 'preflight' | 'policy' | 'egress';
  check(call: GuardCall): Verdict | Promise<Verdict>;
}

/** A stage that filters a result on its way into the model's context (text layers, taint tagging). */
export interface IngressStage {
  readonly name: string;
  readonly slot: 'ingress';
  filter(call: GuardCall, result: ToolResult): ToolResult | Promise<ToolResult>;
}

/** An event about to be appended to the log. */
export interface LogDraft {
  readonly session: string;
  readonly type: string;
  readonly actor: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A stage that filters everything written to the log, before it is written. Must be synchronous. */
export interface LogStage {
  readonly name: string;
  readonly slot: 'log';
  filter(draft: LogDraft): LogDraft;
}

/** Any guard stage a plugin can add. */
export type GuardStage = CheckStage | IngressStage | LogStage;

/** One secret class and the destination it would leave for, as a person is shown it (never a value). */
export interface ConfirmationSubject {
  readonly class: string;
  /** `METHOD host/path`, or `[hidden]` when the URL itself carries the value. */
  readonly destination: string;
}

/**
 * What a confirmer is asked. `security` marks a question only a person may answer (see `Verdict`);
 * `effect` is what an "always" answer would cover (see `PrimitiveDefinition.effect`).
 */
export interface ConfirmationRequest {
  readonly session: string;
  readonly callId: string;
  readonly name: string;
  readonly tier: Tier;
  readonly reason: string;
  readonly args: unknown;
  readonly effect: string;
  readonly security?: boolean;
  /** The call's abort signal: once it fires the guard stops waiting and the call is cancelled. */
  readonly signal?: AbortSignal;
  /** For egress questions: each secret class and where it would go. */
  readonly subjects?: readonly ConfirmationSubject[];
  /** What the call would do, one line each (`PrimitiveDefinition.preview`), for the person to see first. */
  readonly effects?: readonly string[];
}

/**
 * A confirmer's full answer. `by` names who answered (a client id, `terminal`, `--yes`). An `allow_always`
 * or `reject_always` option is remembered for the session by the call's effect (logged as `approval.granted`
 * or `approval.refused`), except for a `security` question, which is never remembered.
 */
export interface ConfirmationAnswer {
  readonly granted: boolean;
  readonly by: string;
  readonly option?: PermissionOptionKind;
}

/** Answers confirmation requests: a front end asks the person; `--yes` grants all but security questions. */
export interface Confirmer {
  /**
   * True for a grant given up front without a person looking (`--yes`). The guard never asks it a
   * `security` question: such a call is handled as if nobody were there.
   */
  readonly blanket?: boolean;
  /** A plain boolean is an answer by `confirmer`, with no option. */
  confirm(request: ConfirmationRequest): Promise<boolean | ConfirmationAnswer>;
}
