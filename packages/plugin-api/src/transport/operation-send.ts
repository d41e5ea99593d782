import type { Envelope } from '@nodwyn/protocol';
import { isEnvelopeError } from '../envelope.js';
import { backoffDelay } from './backoff.js';
import { transportEnvelope } from './codes.js';
import { exchange, MAX_READ_REDIRECTS, type Exchange } from './operation-exchange.js';
import { errorAnswerFailure, requestId, type AttemptFailure, type FailureCall } from './operation-failure.js';
import { unknownOutcomeEnvelope } from './operation-outcome.js';
import type { RenderedRequest } from './operation-request.js';
import type { AuthProvider, OperationDiagnostic, OperationFetch } from './operation-types.js';
import { pause } from './pause.js';
import type { RetryPolicy } from './retry-types.js';

/** Everything one call's sending needs, decided before the first byte goes out. */
export interface SendPlan extends Omit<FailureCall, 'attempts'> {
  readonly rendered: RenderedRequest;
  /** The idempotency key and the header it travels in; the same on every attempt. */
  readonly key?: { readonly header: string; readonly value: string };
  readonly fetch: OperationFetch;
  readonly auth?: AuthProvider;
  readonly policy: RetryPolicy;
  readonly timeoutMs: number;
  /** Most bytes of an answer's body read. */
  readonly maxResponseBytes: number;
  readonly random: () => number;
  readonly signal: AbortSignal;
  readonly diagnose: (event: OperationDiagnostic) => void;
  /** Runs once, right before the first request leaves (spends the confirmation token). */
  readonly beforeSend: () => void;
  /** The URL as diagnostics show it (sensitive parameters redacted). */
  readonly shownUrl: string;
  /** Removes the key and sensitive values from text a server or socket wrote. */
  readonly conceal: (text: string) => string;
  /** Hand a 2xx event stream over unread as the value (a `Response`); anything else 2xx is invalid. */
  readonly stream?: boolean;
}

/** A decoded success, or the envelope of the last attempt. */
export type SendResult =
  | { readonly ok: true; readonly status: number; readonly value: unknown; readonly requestId?: string; readonly attempts: number }
  | { readonly ok: false; readonly envelope: Envelope };

/**
 * Sends a call under its retry tier (docs/architecture.md §8). A read, or a mutation with a key
 * (auto, caller_owned, content_hash: the identical key and body every time), is retried on
 * RATE_LIMITED, UPSTREAM_UNAVAILABLE and TRANSPORT_FAILED with full-jitter backoff or the server's
 * Retry-After (a wait above policy.maxMs is not made: the envelope carries retry_after_ms instead); a
 * mutation without a key is sent once. A 401 lets the auth provider refresh once and resends once.
 */
export async function sendOperation(plan: SendPlan): Promise<SendResult> {
  const safe = !plan.mutation || plan.protection !== undefined;
  let refreshed = false;
  let sent = 0;
  // A mutation one attempt may have applied stays unknown, however a later repeat fails.
  let unknown: Envelope | undefined;
  for (let attempt = 1; ; attempt++) {
    if (plan.signal.aborted) return { ok: false, envelope: cancelled(plan, sent) };
    let credentials: readonly (readonly [string, string])[];
    try {
      credentials = (await plan.auth?.headers(plan.operation, plan.signal)) ?? [];
    } catch (error) {
      return { ok: false, envelope: authFailure(error, plan, sent) };
    }
    const headers = [...plan.rendered.headers, ...credentials, ...(plan.key === undefined ? [] : [[plan.key.header, plan.key.value] as const])];
    if (sent === 0) plan.beforeSend();
    sent += 1;
    plan.diagnose({ type: 'request', operation: plan.operation.id, attempt: sent, method: plan.rendered.method, url: plan.shownUrl });
    const request = { method: plan.rendered.method, url: plan.rendered.url, headers, ...(plan.rendered.body === undefined ? {} : { body: plan.rendered.body }) };
    const ended = await exchange(plan.fetch, request, { read: !plan.mutation, signal: plan.signal, timeoutMs: plan.timeoutMs, maxBytes: plan.maxResponseBytes, stream: plan.stream === true });
    if (ended.kind === 'answer' && ended.status === 401 && !refreshed && plan.auth?.unauthorized !== undefined) {
      refreshed = true;
      let renewed: boolean;
      try {
        renewed = await plan.auth.unauthorized(plan.operation, plan.signal);
      } catch (error) {
        return { ok: false, envelope: authFailure(error, plan, sent) };
      }
      if (renewed) {
        attempt -= 1;
        continue;
      }
    }
    const judged = judge(ended, plan, sent);
    if ('value' in judged) return { ok: true, ...judged, attempts: sent };
    const delay = safe && judged.transient ? nextDelay(judged.envelope, attempt, plan) : undefined;
    if (delay === undefined) return { ok: false, envelope: concealed({ ...finalFailure(judged.envelope, unknown, plan, sent), trace: { attempts: sent } }, plan.conceal) };
    if (judged.envelope.category === 'OUTCOME_UNKNOWN') unknown ??= judged.envelope;
    plan.diagnose({ type: 'retry', operation: plan.operation.id, attempt: sent + 1, delayMs: delay, reason: judged.envelope.code ?? judged.envelope.category });
    if (!(await pause(delay, plan.signal))) return { ok: false, envelope: cancelled(plan, sent) };
  }
}

/** The last attempt's failure, unless an earlier attempt of the mutation may have been applied: then that stays the news. */
function finalFailure(last: Envelope, unknown: Envelope | undefined, plan: SendPlan, attempts: number): Envelope {
  if (unknown === undefined || last.category === 'OUTCOME_UNKNOWN' || last.category === 'CANCELLED') return last;
  const how = last.http_status === null ? (last.code ?? last.category) : `HTTP ${last.http_status}`;
  return unknownOutcomeEnvelope(plan.operation, {
    ...plan,
    attempts,
    ...(last.http_status === null ? {} : { http_status: last.http_status }),
    reason: `an earlier attempt may have reached the server, and the repeat failed (${how})`,
  });
}

/** The envelope with every text that may repeat a server's words concealed. */
function concealed(envelope: Envelope, conceal: (text: string) => string): Envelope {
  const text = (value: string | null): string | null => (value === null ? null : conceal(value));
  return { ...envelope, remediation: conceal(envelope.remediation), next_action: text(envelope.next_action), received_value: text(envelope.received_value), expected: text(envelope.expected) };
}

function nextDelay(failure: Envelope, attempt: number, plan: SendPlan): number | undefined {
  if (attempt >= plan.policy.maxAttempts) return undefined;
  const asked = failure.retry_after_ms ?? undefined;
  if (asked !== undefined) return asked > plan.policy.maxMs ? undefined : asked;
  return backoffDelay(attempt, plan.policy, plan.random);
}

type Success = { readonly status: number; readonly value: unknown; readonly requestId?: string };

/** What one exchange means for this call. */
function judge(ended: Exchange, plan: SendPlan, attempts: number): Success | AttemptFailure {
  const call = { ...plan, attempts };
  const id = plan.operation.id;
  switch (ended.kind) {
    case 'answer': {
      const json = /[/+]json\b/i.test(ended.headers.get('content-type') ?? '');
      const parsed = json && ended.text !== '' ? parseJson(ended.text) : { value: ended.text === '' ? undefined : ended.text };
      if (ended.status >= 200 && ended.status < 300) {
        if (plan.stream === true) {
          const type = ended.headers.get('content-type') ?? 'no content type';
          return { envelope: transportEnvelope('RESPONSE_INVALID', { operation: id, http_status: ended.status, attempts, remediation: invalidBody(plan, ended.status, `is ${type}, not an event stream`) }), transient: false };
        }
        if (parsed === undefined) return { envelope: transportEnvelope('RESPONSE_INVALID', { operation: id, http_status: ended.status, attempts, remediation: invalidBody(plan, ended.status, 'is not the JSON it declares') }), transient: false };
        const requestIdValue = requestId(ended.headers);
        return { status: ended.status, value: ended.status === 204 ? undefined : parsed.value, ...(requestIdValue === undefined ? {} : { requestId: requestIdValue }) };
      }
      return errorAnswerFailure({ status: ended.status, headers: ended.headers, body: parsed?.value ?? ended.text, json: parsed !== undefined && json }, call);
    }
    case 'stream':
      return { status: ended.status, value: ended.response };
    case 'redirect':
      return redirectFailure(ended, plan, attempts);
    case 'body-lost':
      if (ended.status >= 200 && ended.status < 300 && plan.mutation) {
        return { envelope: transportEnvelope('RESPONSE_INVALID', { operation: id, http_status: ended.status, attempts, remediation: invalidBody(plan, ended.status, `broke off (${ended.reason})`) }), transient: false };
      }
      if (ended.status >= 200 && ended.status < 300) return connectionFailure(plan, attempts, `the answer broke off (${ended.reason})`, true);
      return errorAnswerFailure({ status: ended.status, headers: ended.headers, body: '', json: false }, call);
    case 'too-large':
      return { envelope: tooLarge(plan, ended.status, ended.maxBytes, attempts), transient: false };
    case 'failed':
      return connectionFailure(plan, attempts, ended.reason, ended.written);
    case 'refused':
      return { envelope: { ...ended.envelope, operation: ended.envelope.operation ?? id }, transient: false };
    case 'timeout':
      if (plan.mutation) return { envelope: unknownOutcomeEnvelope(plan.operation, { ...call, reason: `no answer came within ${plan.timeoutMs} ms after the request was sent` }), transient: false };
      return { envelope: transportEnvelope('ATTEMPT_TIMEOUT', { operation: id, attempts, remediation: `${id} did not answer within ${plan.timeoutMs} ms. Wait a little, then call it again.` }), transient: false };
    case 'cancelled':
      return { envelope: cancelled(plan, attempts), transient: false };
  }
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function invalidBody(plan: SendPlan, status: number, what: string): string {
  const id = plan.operation.id;
  if (plan.mutation) return `${id} succeeded (HTTP ${status}) but its answer ${what}. The change was made: do not repeat it; read the resource to see its state.`;
  return `${id} answered HTTP ${status} but the answer ${what}. Call it again; if it keeps happening, the API is not answering as documented.`;
}

function connectionFailure(plan: SendPlan, attempts: number, reason: string, written: boolean): AttemptFailure {
  const id = plan.operation.id;
  if (written && plan.mutation) {
    return { envelope: unknownOutcomeEnvelope(plan.operation, { ...plan, attempts, reason: `the connection failed after the request was sent (${reason})` }), transient: true };
  }
  const when = written ? 'before an answer arrived' : 'before the request was sent';
  return {
    envelope: transportEnvelope('CONNECTION_FAILED', { operation: id, attempts, remediation: `The connection for ${id} failed ${when} (${reason}). Check that the server is up, then call it again.` }),
    transient: true,
  };
}

function redirectFailure(ended: Extract<Exchange, { kind: 'redirect' }>, plan: SendPlan, attempts: number): AttemptFailure {
  const id = plan.operation.id;
  const target = URL.canParse(ended.location) ? (({ origin, pathname }) => origin + pathname)(new URL(ended.location)) : 'an invalid Location';
  if (plan.mutation && ended.status === 303) {
    return { envelope: unknownOutcomeEnvelope(plan.operation, { ...plan, attempts, http_status: ended.status, reason: `it answered 303 See Other (${target}), which nodwyn does not follow on a mutation` }), transient: false };
  }
  if (ended.tooMany) {
    return { envelope: transportEnvelope('TOO_MANY_REDIRECTS', { operation: id, http_status: ended.status, attempts, remediation: `${id} was redirected more than ${MAX_READ_REDIRECTS} times; the server's URL is misconfigured.` }), transient: false };
  }
  const why = plan.mutation ? 'redirects are never followed on a mutation' : 'reads follow same-origin redirects only';
  return {
    envelope: transportEnvelope('REDIRECT_NOT_FOLLOWED', { operation: id, http_status: ended.status, attempts, retryable: 'after_remediation', remediation: `${id} answered HTTP ${ended.status} to ${target}, not followed: ${why}. Check the operation's server URL.` }),
    transient: false,
  };
}

function cancelled(plan: SendPlan, attempts: number): Envelope {
  const id = plan.operation.id;
  const maybe = plan.mutation && attempts > 0 ? ' It may have reached the server: check its effect before repeating it.' : ' Nothing more is sent.';
  return transportEnvelope('CANCELLED', { operation: id, attempts, remediation: `The call to ${id} was cancelled.${maybe}` });
}

function authFailure(error: unknown, plan: SendPlan, attempts: number): Envelope {
  if (isEnvelopeError(error)) return { ...error.envelope, operation: plan.operation.id, trace: { attempts } };
  return transportEnvelope('AUTH_INVALID', { operation: plan.operation.id, attempts, remediation: `The credential for ${plan.operation.id} could not be prepared. Check its keychain entry and binding, then call it again.` });
}

/**
 * An answer too large to read. The status is known, so a mutation's outcome is too: a 2xx applied it,
 * and repeating it would apply it again.
 */
function tooLarge(plan: SendPlan, status: number, maxBytes: number, attempts: number): Envelope {
  const id = plan.operation.id;
  const applied = plan.mutation && status >= 200 && status < 300;
  return transportEnvelope('RESPONSE_TOO_LARGE', {
    operation: id,
    http_status: status,
    attempts,
    retryable: 'after_remediation',
    remediation: applied
      ? `${id} answered HTTP ${status}: the change was made, but its answer was over ${maxBytes} bytes and was not read. Do not repeat it; read the result with a narrower read.`
      : `${id} answered HTTP ${status} with a body over ${maxBytes} bytes, which was not read. Ask for less (filters, a page size), or raise the client's maxResponseBytes.`,
  });
}
