import type { RequestPermissionRequest, RequestPermissionResponse, ToolKind } from '@agentclientprotocol/sdk';
import type { ConfirmationAnswer, ConfirmationRequest, Confirmer } from '@nodwyn/plugin-api';
import type { ConfirmationRequested, PermissionOptionKind } from '@nodwyn/protocol';

/** Who a question goes to: every attached client is told; the prompting client is asked. */
export interface ConfirmationAudience {
  /** Who the prompting client is, as `confirmation.decided` names it. */
  readonly prompter: string;
  /** `_nodwyn/confirmation/requested` to every client attached to the session. */
  tell(request: ConfirmationRequested): void;
  /**
   * `session/request_permission` to the client that sent the prompt; rejects when that client cannot
   * answer (it left, or has no handler), which leaves the question to the others.
   */
  ask(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
}

/** The ACP id and view of the call a question is about (`undefined` for a call that is not the model's own). */
export type CallLookup = (callId: string) => { toolCallId: string; title: string; kind: ToolKind } | undefined;

interface Pending {
  readonly request: ConfirmationRequested;
  readonly settle: (answer: ConfirmationAnswer) => void;
  readonly withdraw: AbortController;
}

const OPTION_NAMES: Readonly<Record<PermissionOptionKind, string>> = {
  allow_once: 'Allow once',
  allow_always: 'Always allow',
  reject_once: 'Reject',
  reject_always: 'Always reject',
};

/** The options a question offers: a security question (a secret leaving for an unbound place) has no "always". */
export function optionsFor(security: boolean): ConfirmationRequested['options'] {
  const kinds: PermissionOptionKind[] = security ? ['allow_once', 'reject_once'] : ['allow_once', 'allow_always', 'reject_once', 'reject_always'];
  return kinds.map((kind) => ({ optionId: kind, name: OPTION_NAMES[kind], kind }));
}

/**
 * A session's pending confirmations. The guard has already logged `confirmation.requested`; the broker
 * puts the question to every attached client at once and takes the first answer, from whichever client
 * gives it (ACP's `session/request_permission` to the prompting client, `_nodwyn/confirmation/answer`
 * from any). A late answer is refused; the prompting client's open request is withdrawn with
 * `$/cancel_request`. The guard logs the decision (`confirmation.decided`, with who gave it).
 */
export class ConfirmationBroker {
  readonly #pending = new Map<string, Pending>();

  constructor(
    private readonly sessionId: string,
    private readonly lookup: CallLookup,
  ) {}

  /** A confirmer for one turn, asking `audience`. */
  confirmer(audience: ConfirmationAudience): Confirmer {
    return { confirm: (request) => this.#ask(request, audience) };
  }

  /** The questions still waiting, for a client that attaches now. */
  pending(): readonly ConfirmationRequested[] {
    return [...this.#pending.values()].map((p) => p.request);
  }

  /**
   * Answers a pending question; true when this answer decided it, false when another came first or
   * nothing with that id waits. An option the question did not offer is refused by the caller first.
   */
  answer(callId: string, optionId: string, by: string): boolean {
    const pending = this.#pending.get(callId);
    const option = pending?.request.options.find((o) => o.optionId === optionId);
    if (!pending || !option) return false;
    this.#settle(callId, { granted: option.kind.startsWith('allow'), by, option: option.kind });
    return true;
  }

  /** Whether `optionId` is one the pending question `callId` offers. */
  offers(callId: string, optionId: string): boolean | undefined {
    const pending = this.#pending.get(callId);
    return pending ? pending.request.options.some((o) => o.optionId === optionId) : undefined;
  }

  #ask(request: ConfirmationRequest, audience: ConfirmationAudience): Promise<ConfirmationAnswer> {
    const security = request.security === true;
    const call = this.lookup(request.callId);
    const question: ConfirmationRequested = {
      sessionId: this.sessionId,
      callId: request.callId,
      toolCallId: call?.toolCallId ?? request.callId,
      tool: request.name,
      tier: request.tier,
      reason: request.reason,
      security,
      options: optionsFor(security),
      ...(request.effects ? { effects: [...request.effects] } : {}),
    };
    return new Promise<ConfirmationAnswer>((resolve) => {
      const withdraw = new AbortController();
      this.#pending.set(request.callId, { request: question, settle: resolve, withdraw });
      const onAbort = (): void => this.#settle(request.callId, { granted: false, by: 'cancel' });
      if (request.signal?.aborted) return onAbort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      audience.tell(question);
      const permission: RequestPermissionRequest = {
        sessionId: this.sessionId,
        toolCall: {
          toolCallId: question.toolCallId,
          title: call?.title ?? request.name,
          kind: call?.kind ?? 'other',
          status: 'pending',
          rawInput: request.args,
          // An editor shows the tool call's content with the question: the effects, a line each.
          ...(request.effects ? { content: [{ type: 'content', content: { type: 'text', text: request.effects.join('\n') } }] } : {}),
        },
        options: question.options,
        _meta: { nodwyn: { callId: request.callId, tier: request.tier, reason: request.reason, security, effect: request.effect, ...(request.subjects ? { subjects: request.subjects } : {}), ...(request.effects ? { effects: request.effects } : {}) } },
      };
      audience.ask(permission, withdraw.signal).then(
        (response) => {
          if (response.outcome.outcome === 'selected') this.answer(request.callId, response.outcome.optionId, audience.prompter);
        },
        // The prompting client could not answer: the question stays for the other clients.
        () => undefined,
      );
    });
  }

  #settle(callId: string, answer: ConfirmationAnswer): void {
    const pending = this.#pending.get(callId);
    if (!pending) return;
    this.#pending.delete(callId);
    pending.withdraw.abort();
    pending.settle(answer);
  }
}
