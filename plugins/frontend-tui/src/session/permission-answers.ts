import type { PermissionRequest, PermissionResponse } from '../state/protocol-types.js';
import type { Question } from '../state/tui-state.js';

interface PermissionMeta {
  readonly callId?: string;
  readonly tier?: string;
  readonly reason?: string;
  readonly security?: boolean;
  readonly subjects?: readonly { class: string; destination: string }[];
  readonly effects?: readonly string[];
}

const CANCELLED: PermissionResponse = { outcome: { outcome: 'cancelled' } };

/** The question a `session/request_permission` asks, read from its `_meta.nodwyn`. */
export function questionOf(request: PermissionRequest): Question {
  const meta = ((request._meta as { nodwyn?: PermissionMeta } | null | undefined)?.nodwyn ?? {}) as PermissionMeta;
  const title = request.toolCall.title ?? undefined;
  return {
    sessionId: request.sessionId,
    callId: meta.callId ?? request.toolCall.toolCallId,
    toolCallId: request.toolCall.toolCallId,
    // The notification about the same call names the tool exactly; the title's first word stands in.
    tool: title?.split(' ')[0] ?? 'a tool',
    ...(title ? { title } : {}),
    tier: meta.tier ?? '',
    reason: meta.reason ?? '',
    security: meta.security === true,
    options: request.options,
    ...(meta.subjects ? { subjects: meta.subjects } : {}),
    ...(Array.isArray(meta.effects) ? { effects: meta.effects.filter((e) => typeof e === 'string') } : {}),
    asked: true,
  };
}

/**
 * The `session/request_permission`s this client was asked and has not answered, by call id: a key in the
 * dialog answers one; a withdrawn one (answered elsewhere, or its turn cancelled) answers `cancelled`.
 */
export class PermissionAnswers {
  readonly #open = new Map<string, (optionId: string | undefined) => void>();

  /**
   * Waits for the person's answer to `question`; `withdrawn` is called when the agent takes the question
   * back (its signal aborts) before anyone answered here.
   */
  wait(question: Question, signal: AbortSignal, withdrawn: () => void): Promise<PermissionResponse> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(CANCELLED);
      const onAbort = (): void => {
        finish(undefined);
        withdrawn();
      };
      const finish = (optionId: string | undefined): void => {
        this.#open.delete(question.callId);
        signal.removeEventListener('abort', onAbort);
        resolve(optionId ? { outcome: { outcome: 'selected', optionId } } : CANCELLED);
      };
      this.#open.set(question.callId, finish);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answers the open request about `callId`; false when this client was not asked about it. */
  answer(callId: string, optionId: string): boolean {
    const finish = this.#open.get(callId);
    finish?.(optionId);
    return finish !== undefined;
  }

  /** Answers every open request `cancelled`, leaving the questions to the other clients. */
  cancelAll(): void {
    for (const finish of [...this.#open.values()]) finish(undefined);
  }
}
