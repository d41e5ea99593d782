import {
  envelope,
  EnvelopeError,
  toEnvelope,
  TIERS,
  type ApplyResult,
  type ConfirmationSubject,
  type Confirmer,
  type GuardCall,
  type Tier,
  type Envelope,
  type ToolProgress,
  type ToolResult,
  type Verdict,
  type EgressTarget,
  type ProtectedFolder,
  type TaintTracker,
  type WorkspaceFiles,
} from '@nodwyn/plugin-api';
import { randomUUID } from 'node:crypto';
import { KernelCodes } from '../errors.js';
import type { AppendDraft } from '../log/index.js';
import type { PrimitiveTable, RegisteredPrimitive } from '../primitives/primitive-table.js';
import { execute } from './execute.js';
import { preflight } from './preflight.js';
import { collect, Denied, egressTargets, mergeTags, modelToolAsHostCall, stageFailure } from './denial.js';
import { isPromise } from './is-promise.js';
import { progressReporter } from './progress.js';
import type { Approvals } from './approvals.js';
import { decide } from './confirmation.js';
import { effectOf, effectsOf } from './effect.js';
import { planRequired, tierVerdict } from './policy.js';
import type { StageSet } from './stage-set.js';
import { STRIKE_EVENT, strikesEnvelope, withheldEnvelope, type Strikes } from './strikes.js';

/** One call to make through the guard. */
export interface ApplyRequest {
  readonly session: string;
  readonly name: string;
  readonly args: unknown;
  readonly origin: 'model' | 'host';
  /**
   * Only host primitives may be reached, by this call and the calls nested in it (a plugin's `calls.apply`
   * outside a person's command): a model tool runs as the model's own call on the turn floor, inside its
   * budgets, never as a plugin's call around them.
   */
  readonly hostOnly?: boolean;
  readonly callId?: string;
  readonly signal?: AbortSignal;
  /** Who answers confirmations; without one, calls that need a confirmation are denied. */
  readonly confirmer?: Confirmer;
  readonly taint?: readonly string[];
  /**
   * Inside a turn: whether a plan was approved. An irreversible call is denied with `PLAN_REQUIRED` while it
   * is false (the hard trigger); outside a turn (undefined) a person invokes primitives directly.
   */
  readonly planApproved?: boolean;
  /** The workspace's files as a front end serves them (see `WorkspaceFiles`); this call and its nested calls use them. */
  readonly files?: WorkspaceFiles;
  /** Who hears how far the call has got (the handler's `progress`); its nested calls report to it too. */
  readonly onProgress?: (update: ToolProgress) => void;
}

/** A request about to leave the machine outside any primitive (a provider's HTTP call). */
export interface EgressCheck {
  readonly session: string;
  /** What sends it, e.g. `model.stream`. */
  readonly name: string;
  readonly targets: readonly EgressTarget[];
  readonly confirmer?: Confirmer;
  /** The request's abort signal: a cancel while a person is asked decides the question. */
  readonly signal?: AbortSignal;
}

/** What the guard needs from the kernel around it. */
export interface GuardDeps {
  readonly primitives: PrimitiveTable;
  readonly stages: StageSet;
  readonly append: (session: string, draft: AppendDraft) => void;
  readonly workspace: string;
  readonly protectedFolders: readonly ProtectedFolder[];
  readonly outputCap: number;
  /** The session's strikes: once used up, every call in the session is refused. */
  readonly strikes: Strikes;
  /** The sessions' remembered "always" answers, by effect. */
  readonly approvals: Approvals;
  /** The L2 tracker, when a plugin provides one: every tool result is screened with it. */
  readonly taint: () => TaintTracker | undefined;
}

const CHECK_SLOTS = ['resolve', 'preflight', 'policy', 'egress'] as const;

/**
 * The one apply path. Runs `resolve → preflight → policy → egress → execute → ingress → log`, stops at
 * the first deny, treats a throwing stage as a deny (fail closed), and logs exactly one outcome event
 * per call.
 */
export class Guard {
  constructor(private readonly deps: GuardDeps) {}

  /** Applies one call. Never throws: every failure is an envelope in the result (and in the log). */
  async apply(request: ApplyRequest): Promise<ApplyResult> {
    const callId = request.callId ?? `host_${randomUUID()}`;
    let outcome: { type: string; fields: Record<string, unknown>; result: ApplyResult };
    try {
      const result = await this.#run(request, callId);
      outcome = {
        type: 'tool.completed',
        fields: { content: result.content, ...(result.truncated ? { truncated: true } : {}), ...(result.taint?.length ? { taint: [...result.taint] } : {}) },
        result: { ok: true, content: result.content, data: result.data, truncated: result.truncated, taint: result.taint ?? [] },
      };
    } catch (error) {
      const denied = error instanceof Denied;
      const env = denied ? error.envelope : toEnvelope(error, { operation: request.name, code: KernelCodes.TOOL_HANDLER_FAILED });
      const stage = denied ? error.stage : 'execute';
      outcome = { type: denied ? 'tool.denied' : 'tool.failed', fields: denied ? { stage, envelope: env } : { envelope: env }, result: { ok: false, envelope: env, stage } };
    }
    try {
      this.#log(request, callId, outcome.type, outcome.fields);
    } catch (error) {
      // The log slot refused the outcome (a text layer failed): the result must not reach anyone unfiltered.
      return { ok: false, envelope: toEnvelope(error, { operation: request.name }), stage: 'log' };
    }
    return outcome.result;
  }

  /**
   * Runs the egress stages on a request that no primitive sends (a model provider's HTTP call), asking the
   * confirmer when a stage wants a person. Resolves when the request may leave; rejects with an
   * `EnvelopeError` when it may not. Nothing is logged but what the stages and the confirmation log.
   */
  async checkEgress(check: EgressCheck): Promise<void> {
    const call: GuardCall = {
      id: `egress_${randomUUID()}`,
      session: check.session,
      name: check.name,
      args: { targets: check.targets.map((t) => ({ method: t.method, url: t.url })) },
      tier: 'read',
      visibility: 'host',
      owner: 'kernel',
      egress: true,
      targets: check.targets,
      origin: 'host',
      taint: [],
    };
    try {
      const request: ApplyRequest = { session: check.session, name: check.name, args: call.args, origin: 'host', confirmer: check.confirmer, signal: check.signal };
      await this.#checkSlot('egress', call, request, () => check.name);
    } catch (error) {
      if (error instanceof Denied) throw new EnvelopeError(error.envelope);
      throw error;
    }
  }

  async #run(request: ApplyRequest, callId: string): Promise<ToolResult & { truncated: boolean }> {
    const { strikes } = this.deps;
    if (strikes.exhausted(request.session)) throw new Denied('security', strikesEnvelope(strikes.limit));
    const primitive = this.#resolve(request);
    const checked = preflight(primitive.input, request.args, primitive.name);
    if (!checked.ok) throw new Denied('preflight', checked.envelope);
    const call: GuardCall = {
      id: callId,
      session: request.session,
      name: primitive.name,
      args: checked.value,
      tier: this.#tierOf(primitive, checked.value),
      visibility: primitive.visibility,
      owner: primitive.owner,
      egress: primitive.egress ?? false,
      targets: egressTargets(primitive, checked.value),
      origin: request.origin,
      taint: request.taint ?? [],
    };
    if (call.tier === 'irreversible' && request.planApproved === false) throw new Denied('policy', planRequired(call));
    let effect: string | undefined;
    const effectOfCall = (): string => (effect ??= effectOf(primitive, call.args, this.deps.workspace));
    const effectsOfCall = (): readonly string[] | undefined => effectsOf(primitive, call.args);
    for (const slot of CHECK_SLOTS) {
      if (slot === 'policy' || this.deps.stages.of(slot).length > 0) await this.#checkSlot(slot, call, request, effectOfCall, effectsOfCall);
    }
    const signal = request.signal ?? new AbortController().signal;
    const context = {
      session: request.session,
      callId,
      workspace: this.deps.workspace,
      protectedFolders: this.deps.protectedFolders,
      outputCap: this.deps.outputCap,
      taint: call.taint,
      ...(request.files ? { files: request.files } : {}),
      ...(request.onProgress ? { progress: progressReporter(request.onProgress) } : {}),
      apply: (name: string, args: unknown, options: { taint?: readonly string[] } = {}) =>
        this.apply({
          session: request.session,
          name,
          args,
          origin: 'host',
          hostOnly: request.hostOnly,
          signal,
          confirmer: request.confirmer,
          taint: mergeTags(call.taint, options.taint),
          planApproved: request.planApproved,
          files: request.files,
          onProgress: request.onProgress,
        }),
    };
    const result = await execute(primitive, call.args, context, signal);
    return this.#screen(call, await this.#ingress(call, result));
  }

  /**
   * A tool result that still holds a remembered secret after the text layers is withheld as a whole and
   * counts as a strike. Redacting just the matching stretch would show the model which of the strings it
   * made a tool print (`echo ghp_ab""cd…`) matched: a secret, one guess at a time. Host calls too: sandboxed
   * code that reads back what it wrote would otherwise learn the same from the taint its run then carries.
   */
  #screen(call: GuardCall, result: ToolResult & { truncated: boolean }): ToolResult & { truncated: boolean } {
    const classes = this.deps.taint()?.matches(call.session, result.content) ?? [];
    if (classes.length === 0) return result;
    this.#strike(call.session, { source: 'tool', call_id: call.id, name: call.name, classes: [...classes] });
    throw new Denied('security', withheldEnvelope(call.name));
  }

  #strike(session: string, payload: Record<string, unknown>): void {
    this.deps.append(session, { type: STRIKE_EVENT, actor: 'kernel', payload });
  }

  #resolve(request: ApplyRequest): RegisteredPrimitive {
    const primitive = this.deps.primitives.get(request.name);
    // The model may only reach model-visible primitives; to it, host primitives do not exist.
    if (!primitive || (request.origin === 'model' && primitive.visibility !== 'model')) {
      const known = this.deps.primitives.list().filter((p) => request.origin === 'host' || p.visibility === 'model');
      throw new Denied(
        'resolve',
        envelope({
          category: 'NOT_FOUND',
          code: KernelCodes.TOOL_UNKNOWN,
          operation: String(request.name),
          failed_parameter: '$.name',
          received_value: request.name,
          expected: known.map((p) => p.name).join(', ') || 'no tools are registered',
          remediation: `There is no tool named "${String(request.name)}". Call one of the listed tools instead.`,
        }),
      );
    }
    if (request.hostOnly === true && primitive.visibility !== 'host') throw new Denied('resolve', modelToolAsHostCall(primitive.name));
    return primitive;
  }

  #tierOf(primitive: RegisteredPrimitive, args: unknown): Tier {
    const declared = primitive.tier;
    if (!primitive.classify) return declared;
    const tier = primitive.classify(args);
    // A classifier may only lower the tier it declared, never raise past what listings show as the maximum.
    return TIERS.indexOf(tier) >= 0 && TIERS.indexOf(tier) <= TIERS.indexOf(declared) ? tier : declared;
  }

  async #checkSlot(
    slot: (typeof CHECK_SLOTS)[number],
    call: GuardCall,
    request: ApplyRequest,
    effect: () => string,
    effects: () => readonly string[] | undefined = () => undefined,
  ): Promise<void> {
    const reasons: string[] = [];
    const subjects: ConfirmationSubject[] = [];
    let otherwise: Envelope | undefined;
    let security = false;
    let strike = false;
    // A refusal that came from matching a remembered secret answers a probe: it is counted as a strike.
    const struck = (): void => this.#strike(call.session, { source: slot, call_id: call.id, name: call.name });
    const note = (verdict: Verdict, name: string, owner: string): void => {
      if (verdict.kind !== 'allow' && verdict.strike === true) strike = true;
      if (verdict.kind === 'deny' && verdict.strike === true) struck();
      collect(verdict, slot, name, owner, reasons);
      if (verdict.kind !== 'confirm') return;
      if (verdict.security === true) security = true;
      if (verdict.otherwise && !otherwise) otherwise = { ...verdict.otherwise, plugin: verdict.otherwise.plugin ?? owner };
      if (verdict.subjects) subjects.push(...verdict.subjects.map((s) => ({ class: String(s.class), destination: String(s.destination) })));
    };
    if (slot === 'policy') note(tierVerdict(call), 'tier', 'kernel');
    for (const { stage, owner } of this.deps.stages.of(slot)) {
      let verdict: Verdict;
      try {
        const answer = stage.check(call);
        // Most stages answer synchronously; awaiting only real promises keeps the common path cheap.
        verdict = isPromise(answer) ? await answer : answer;
      } catch (error) {
        throw new Denied(`${slot}:${stage.name}`, stageFailure(error, slot, stage.name, owner, call.name));
      }
      note(verdict, stage.name, owner);
    }
    if (reasons.length === 0) return;
    const decision = await decide(
      { call, reasons, confirmer: request.confirmer, otherwise, security, subjects, effect, effects, signal: request.signal },
      {
        approvals: this.deps.approvals,
        record: (type, fields) => this.#log(request, call.id, type, fields),
        remember: (type, payload) => this.deps.append(call.session, { type, actor: 'kernel', payload }),
      },
    );
    if (!decision.ok) {
      if (strike) struck();
      throw new Denied(slot, decision.envelope);
    }
  }

  async #ingress(call: GuardCall, result: ToolResult & { truncated: boolean }): Promise<ToolResult & { truncated: boolean }> {
    let current: ToolResult = result;
    for (const { stage, owner } of this.deps.stages.of('ingress')) {
      try {
        current = await stage.filter(call, current);
      } catch (error) {
        throw new Denied(`ingress:${stage.name}`, stageFailure(error, 'ingress', stage.name, owner, call.name));
      }
    }
    return { ...current, truncated: result.truncated };
  }

  #log(request: ApplyRequest, callId: string, type: string, fields: Record<string, unknown>): void {
    const host = request.origin === 'host' ? { origin: 'host', args: request.args } : {};
    this.deps.append(request.session, {
      type,
      actor: type.startsWith('confirmation.') ? 'kernel' : `tool:${toolActor(request.name)}`,
      payload: { call_id: callId, name: String(request.name), ...host, ...fields },
    });
  }
}

function toolActor(name: unknown): string {
  const text = String(name).toLowerCase().replace(/[^a-z0-9_./-]/g, '_');
  return text.length > 0 ? text.slice(0, 64) : 'unknown';
}
