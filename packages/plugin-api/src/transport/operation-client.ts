import { randomBytes } from 'node:crypto';
import type { Envelope } from '@nodwyn/protocol';
import type { OutgoingRequest } from '../egress.js';
import { toEnvelope } from '../envelope.js';
import { transportEnvelope } from './codes.js';
import { confirmationTokens, type TokenGrant } from './confirmation-token.js';
import { callKey } from './idempotency-key.js';
import { memoryIdempotencyStore } from './idempotency-store.js';
import { argsDigest } from './operation-digest.js';
import { preflightArgs, type CallArgs } from './operation-preflight.js';
import { buildPreview } from './operation-preview.js';
import { concealer } from './operation-redaction.js';
import { renderRequest } from './operation-request.js';
import { sendOperation, type SendResult } from './operation-send.js';
import type { CallOptions, OpenOptions, OpenResult, OperationClient, OperationClientOptions, OperationDescriptor, OperationResult, Preview } from './operation-types.js';
import { DEFAULT_RETRY_POLICY } from './retry-types.js';
import { verifyOperation } from './verification.js';

/** Default time one attempt may take. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
/** Most bytes of an answer's body a client reads, unless its options say otherwise. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

type Failure = { ok: false; envelope: Envelope };

/**
 * The operation runtime (docs/architecture.md §8): each call goes preflight → idempotency key →
 * confirmation → send under its retry tier → classify → verify. Every failure is one envelope; keys,
 * credentials and sensitive fields never appear in envelopes, previews or diagnostics.
 */
export function createOperationClient(options: OperationClientOptions): OperationClient {
  const operations = new Map(options.operations.map((operation) => [operation.id, operation]));
  const store = options.idempotency ?? memoryIdempotencyStore();
  const tokens = confirmationTokens(options.sessionKey ?? randomBytes(32), options.now);
  const diagnose = options.onDiagnostic ?? (() => undefined);

  const prepare = (id: string, raw: unknown): { operation: OperationDescriptor; args: CallArgs } | Failure => {
    const operation = operations.get(id);
    if (operation === undefined) return { ok: false, envelope: unknownOperation(id, [...operations.keys()]) };
    const checked = preflightArgs(operation, raw);
    return checked.ok ? { operation, args: checked.args } : checked;
  };

  /** preflight → key → confirmation → send under the retry tier; `stream` hands a 2xx event stream over unread. */
  const send = async (id: string, raw: unknown, callOptions: OpenOptions, stream: boolean): Promise<{ sent: SendResult; operation: OperationDescriptor; args: CallArgs } | Failure> => {
    const started = Date.now();
    const prepared = prepare(id, raw);
    if ('ok' in prepared) return prepared;
    const { operation, args } = prepared;
    const digest = argsDigest(args);
    const key = callKey(operation, digest, callOptions, store);
    if ('envelope' in key) return { ok: false, envelope: key.envelope };
    const grant = confirm(operation, digest, key.key?.value, callOptions.confirmationToken);
    if ('envelope' in grant) return grant;
    const rendered = renderRequest(operation, args);
    const resume = callOptions.lastEventId === undefined ? [] : [['Last-Event-ID', callOptions.lastEventId] as const];
    const sent = await sendOperation({
      operation,
      args,
      mutation: operation.tier !== 'read',
      protection: key.protection,
      rendered: { ...rendered, headers: [...rendered.headers, ...resume] },
      ...(key.key === undefined ? {} : { key: key.key }),
      fetch: options.fetch,
      ...(options.auth === undefined ? {} : { auth: options.auth }),
      policy: { ...DEFAULT_RETRY_POLICY, ...options.retry, ...operation.retries },
      timeoutMs: operation.timeoutMs ?? options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      random: options.random ?? Math.random,
      signal: callOptions.signal ?? new AbortController().signal,
      diagnose,
      shownUrl: renderRequest(operation, args, true).url,
      conceal: concealer(operation, args, key.key?.value),
      stream,
      beforeSend: () => {
        key.persist();
        if (grant.grant !== undefined) tokens.spend(grant.grant.id, key.key?.value, grant.grant.expiresAt);
      },
    });
    const outcome = sent.ok ? { ok: true, status: sent.status } : { ok: false, category: sent.envelope.category, ...(sent.envelope.code === null ? {} : { code: sent.envelope.code }) };
    diagnose({ type: 'outcome', operation: id, attempts: sent.ok ? sent.attempts : sent.envelope.trace.attempts, durationMs: Date.now() - started, ...outcome });
    return { sent, operation, args };
  };

  const call = async (id: string, raw: unknown, callOptions: CallOptions = {}): Promise<OperationResult> => {
    const done = await send(id, raw, callOptions, false).catch((error: unknown) => unexpected(error, id));
    if ('ok' in done) return done;
    const { sent: result, operation, args } = done;
    if (!result.ok || operation.tier === 'read' || operation.verify === undefined || !(callOptions.verify ?? operation.tier === 'irreversible')) return result;
    const verification = await verifyOperation(operation, args, result.value, readOnly, callOptions.signal ?? new AbortController().signal);
    diagnose({ type: 'verification', operation: id, verify: operation.verify.operation, polls: verification.polls ?? 0, ...(verification.matched === undefined ? {} : { matched: verification.matched }) });
    return { ...result, verification };
  };

  /** The verification's way to its read: a verify entry that names a mutation runs nothing. */
  const readOnly = (id: string, readArgs: unknown, readOptions: CallOptions): Promise<OperationResult> =>
    operations.get(id)?.tier === 'read' ? call(id, readArgs, readOptions) : Promise.resolve({ ok: false, envelope: notARead(id) });

  /** A destructive or irreversible call needs a token that authorizes it (CONFIRMATION_REQUIRED otherwise). */
  const confirm = (operation: OperationDescriptor, digest: string, key: string | undefined, token: string | undefined): { grant?: TokenGrant } | Failure => {
    if (operation.tier !== 'destructive' && operation.tier !== 'irreversible') return {};
    const base = { operation: operation.id, failed_parameter: 'confirmationToken', next_action: `Call preview for ${operation.id} with these arguments, show its effects to the person, and pass its confirmation_token.` };
    if (token === undefined) {
      return { ok: false, envelope: transportEnvelope('CONFIRMATION_TOKEN_REQUIRED', { ...base, remediation: `${operation.id} is ${operation.tier}: it needs a confirmation token from a preview of exactly these arguments, which a person has seen.` }) };
    }
    const checked = tokens.check(token, operation.id, digest, key);
    if ('code' in checked) {
      return { ok: false, envelope: transportEnvelope(checked.code, { ...base, remediation: `The confirmation token ${checked.reason}; a token authorizes one call of one operation with exactly the previewed arguments.` }) };
    }
    return { grant: checked };
  };

  return {
    call,
    async open(id, raw, openOptions = {}): Promise<OpenResult> {
      const done = await send(id, raw, openOptions, true).catch((error: unknown) => unexpected(error, id));
      if ('ok' in done) return done;
      const { sent } = done;
      if (!sent.ok) return sent;
      const { value, ...head } = sent;
      return { ...head, response: value as Response };
    },
    preview(id, raw): Preview | Failure {
      const prepared = prepare(id, raw);
      return 'ok' in prepared ? prepared : buildPreview(prepared.operation, prepared.args, options.auth, tokens);
    },
    describe(id, raw): OutgoingRequest | undefined {
      const prepared = prepare(id, raw);
      if ('ok' in prepared) return undefined;
      const { method, url, headers, body } = renderRequest(prepared.operation, prepared.args);
      return { method, url, headers: [...headers, ...(options.auth?.describe?.(prepared.operation) ?? [])], ...(body === undefined ? {} : { body }) };
    },
    operation: (id) => operations.get(id),
  };
}

/** A store, an auth provider or a fetch that threw something the runtime does not expect: one envelope, never a rejection. */
function unexpected(error: unknown, id: string): Failure {
  return { ok: false, envelope: toEnvelope(error, { operation: id }) };
}

function notARead(id: string): Envelope {
  return transportEnvelope('OPERATION_UNKNOWN', {
    operation: id,
    remediation: `A verification runs a read, and this client has no read operation "${id}"; the manifest's verify entry must name one.`,
  });
}

function unknownOperation(id: string, known: readonly string[]): Envelope {
  return transportEnvelope('OPERATION_UNKNOWN', {
    operation: id,
    expected: known.length <= 10 ? `one of: ${known.join(', ')}` : `one of the ${known.length} operations of this client`,
    remediation: `This client has no operation "${id}". Use the id of one of its operations.`,
  });
}
