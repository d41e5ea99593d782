import { describeReceived, isEnvelopeError, type ModelCompletion, type ModelCompletionResult, type Redactor } from '@nodwyn/plugin-api';
import { judgeError } from './errors.js';
import type { JudgeConfig } from './judge-config.js';

/** What a judge call needs from the plugin context. */
export interface ConsultDeps {
  readonly config: JudgeConfig;
  readonly complete: (request: ModelCompletion) => Promise<ModelCompletionResult>;
  /** The L1 text layer, looked up per call. */
  readonly redactor: () => Redactor;
}

/** One question to the judge's model. */
export interface Consultation {
  readonly session: string;
  /** `judge.gate`, `judge.plan`, `judge.egress`: the operation named in envelopes. */
  readonly operation: string;
  readonly text: string;
  readonly signal: AbortSignal;
}

/**
 * Asks the judge's model one question and returns its answer text. The payload passes the text layer
 * first (a failing layer sends nothing); the call is bounded by `[judge] timeout_ms` even when a provider
 * ignores the abort signal. Every failure is an envelope that the caller treats as "no".
 */
export async function consultJudge(deps: ConsultDeps, question: Consultation): Promise<string> {
  const { config } = deps;
  const { operation } = question;
  if (config.provider === undefined) throw notConfigured(operation);
  const text = redacted(deps, question);
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const signal = AbortSignal.any([question.signal, timeout]);
  try {
    const request = { session: question.session, provider: config.provider, options: config.options, messages: [{ role: 'user' as const, text }], signal };
    return (await untilAborted(deps.complete(request), signal)).text;
  } catch (error) {
    if (question.signal.aborted) throw judgeError('JUDGE_CANCELLED', { operation, remediation: 'The turn was cancelled while the judge was scoring; nothing was approved.' }, error);
    if (timeout.aborted) {
      throw judgeError(
        'JUDGE_TIMEOUT',
        { operation, remediation: `The judge did not answer within ${config.timeoutMs} ms, so its answer counts as "no" (fails closed). Retry, or raise [judge] timeout_ms in config.toml.` },
        error,
      );
    }
    throw judgeError('JUDGE_FAILED', { operation, remediation: `The judge's model failed (${causeOf(error)}), so its answer counts as "no" (fails closed). Retry; if it keeps failing, check [judge] in config.toml.` }, error);
  }
}

function notConfigured(operation: string) {
  return judgeError('JUDGE_NOT_CONFIGURED', {
    operation,
    failed_parameter: '$.judge.provider',
    remediation: 'No judge is configured, so nothing can be judged (plans go to the person instead). Set [judge] provider and model in config.toml to use one.',
  });
}

/** The question as it may leave the machine: every secret the text layer finds replaced. */
function redacted(deps: ConsultDeps, question: Consultation): string {
  try {
    return deps.redactor().redact(question.text).text;
  } catch (error) {
    throw judgeError(
      'JUDGE_REDACTION_FAILED',
      { operation: question.operation, remediation: 'The text layer failed on what the judge would see, so nothing was sent and the answer counts as "no". Retry; if it keeps failing, report it with the session id.' },
      error,
    );
  }
}

/** The provider's own failure, short: its code and remediation, or the error's message. */
function causeOf(error: unknown): string {
  if (isEnvelopeError(error)) return describeReceived(`${error.envelope.code ?? error.envelope.category}: ${error.envelope.remediation}`);
  return describeReceived(error instanceof Error ? error.message : error);
}

/** `work`, or a rejection as soon as `signal` aborts, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
