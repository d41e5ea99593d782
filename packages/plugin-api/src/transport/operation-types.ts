import type { Category, Envelope, Retryable } from '@nodwyn/protocol';
import type { OutgoingRequest } from '../egress.js';
import type { Tier } from '../primitive.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { RetryPolicy } from './retry-types.js';

/**
 * How a mutation is protected against being applied twice (docs/architecture.md §8): `none`, a key the
 * runtime generates and keeps per logical call (`auto`), a key the caller brings (`caller_owned`), or
 * a key derived from the arguments, so the identical body is its own protection (`content_hash`).
 */
export type IdempotencyPolicy = 'none' | 'auto' | 'caller_owned' | 'content_hash';

/** One path, query or header parameter of an operation, under its wire name. */
export interface ParamDescriptor {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  /** Redacted in envelopes, previews and diagnostics. */
  readonly sensitive?: boolean;
}

/**
 * A read run after a successful mutation to check its effect. In `args`, `expect` and `terminal`, the
 * strings `"$args.<name>"` and `"$response.<path>"` refer to the call's arguments and the mutation's
 * answer; a reference that does not resolve never matches.
 */
export interface VerifyDescriptor {
  /** Id of a read operation of the same client. */
  readonly operation: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Path in the read's value → the value expected there. */
  readonly expect?: Readonly<Record<string, unknown>>;
  /** When given, the read is polled until every entry matches (or the budget is spent). */
  readonly terminal?: Readonly<Record<string, unknown>>;
  /** Polling budget in ms (default 10 000). */
  readonly budgetMs?: number;
  /** Wait between polls in ms (default 500). */
  readonly intervalMs?: number;
}

/** What an API's error answer means, as the operation's manifest states it. */
export interface ErrorMapping {
  readonly category: Category;
  readonly retryable?: Retryable;
  readonly remediation?: string;
}

/** One HTTP operation the runtime can call. */
export interface OperationDescriptor {
  /** The envelope's `operation`, e.g. "acme.createPet". */
  readonly id: string;
  /** Upper case. */
  readonly method: string;
  /** Absolute URL template: "https://api.example.test/v1/pets/{petId}". */
  readonly url: string;
  readonly params: readonly ParamDescriptor[];
  readonly body?: { readonly required: boolean; readonly mediaType: 'application/json' | 'application/x-www-form-urlencoded' };
  readonly tier: Tier;
  readonly idempotency?: { readonly policy: IdempotencyPolicy; readonly header?: string; readonly persist?: 'required' };
  /** Sensitive request fields as paths: "body.password", "query.token" (or a parameter's wire name). */
  readonly sensitive?: readonly string[];
  readonly description?: string;
  readonly confirmation?: { readonly message?: string; readonly remediationNote?: string };
  readonly verify?: VerifyDescriptor;
  readonly errors?: {
    /** Statuses after which the runtime cannot know whether a mutation was applied. */
    readonly ambiguousStatuses?: readonly number[];
    /** By the error code of the answer's body. */
    readonly codes?: Readonly<Record<string, ErrorMapping>>;
    /** For an error answer whose body is not JSON. */
    readonly nonJson?: ErrorMapping;
    /** By status, e.g. "409". */
    readonly statuses?: Readonly<Record<string, ErrorMapping>>;
  };
  /** The operation answers text/event-stream; `done` is the data value that ends it. */
  readonly stream?: { readonly done?: string };
  /** Overrides the client's retry policy, field by field. */
  readonly retries?: Partial<RetryPolicy>;
  /** Time one attempt may take, request and answer (default: the client's `timeoutMs`). */
  readonly timeoutMs?: number;
}

/**
 * The caller's last hop. It must not follow redirects (the runtime decides which to follow), and it
 * replaces `{{secret:NAME}}` handles in header values: in nodwyn it is the egress sender.
 */
export interface OperationFetch {
  (request: OutgoingRequest, signal: AbortSignal): Promise<Response>;
}

/** Adds credentials to an operation's requests. */
export interface AuthProvider {
  /** Headers to add; values may be `{{secret:NAME}}` handles. */
  headers(operation: OperationDescriptor, signal: AbortSignal): Promise<readonly (readonly [string, string])[]>;
  /** After a 401: refresh once; true when a new credential is ready (the runtime resends once). */
  unauthorized?(operation: OperationDescriptor, signal: AbortSignal): Promise<boolean>;
  /**
   * The headers `headers` would add, in handle form, without side effects: `describe` and `preview`
   * are synchronous and show these (redacted in a preview). Absent: they show no credential headers.
   */
  describe?(operation: OperationDescriptor): readonly (readonly [string, string])[];
}

/** Something the runtime did, for logs and front ends: never a key, a secret or a sensitive value. */
export type OperationDiagnostic =
  | { readonly type: 'request'; readonly operation: string; readonly attempt: number; readonly method: string; readonly url: string }
  | {
      readonly type: 'retry';
      readonly operation: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly reason: string;
    }
  | {
      readonly type: 'outcome';
      readonly operation: string;
      readonly attempts: number;
      readonly ok: boolean;
      readonly status?: number;
      readonly category?: Category;
      readonly code?: string;
      readonly durationMs: number;
    }
  | { readonly type: 'verification'; readonly operation: string; readonly verify: string; readonly polls: number; readonly matched?: boolean };

/** How a client is made. */
export interface OperationClientOptions {
  readonly operations: readonly OperationDescriptor[];
  /** The caller's last hop (plugins pass the egress sender; tests `directOperationFetch`). */
  readonly fetch: OperationFetch;
  /** Where `auto` and `caller_owned` keys are kept (default `memoryIdempotencyStore()`). */
  readonly idempotency?: IdempotencyStore;
  /** HMAC key of confirmation tokens (default: 32 random bytes per client). */
  readonly sessionKey?: Uint8Array;
  /** Client default; an operation's `retries` overrides it field by field. */
  readonly retry?: Partial<RetryPolicy>;
  readonly auth?: AuthProvider;
  /** Time one attempt may take, in ms (default 30 000). */
  readonly timeoutMs?: number;
  /** Most bytes of an answer's body read (default 8 MiB); past them the call is RESPONSE_TOO_LARGE. */
  readonly maxResponseBytes?: number;
  /** For tests: jitter source. */
  readonly random?: () => number;
  /** For tests: the clock of token expiry (default Date.now). */
  readonly now?: () => number;
  /** Never carries keys, secrets or sensitive fields. */
  readonly onDiagnostic?: (event: OperationDiagnostic) => void;
}

/** Per-call options. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** The token `preview` returned; destructive and irreversible operations need one. */
  readonly confirmationToken?: string;
  /** The caller's key (`caller_owned`), a UUID. */
  readonly idempotencyKey?: string;
  /** Names the intent, so a repeat of it reuses its key (`auto`, `caller_owned`); default: the arguments' digest. */
  readonly logicalId?: string;
  /** Run the operation's verification read (default: on for irreversible operations, off otherwise). */
  readonly verify?: boolean;
}

/** Options of `open`: a call's, and the id of the last event received when resuming a stream. */
export interface OpenOptions extends CallOptions {
  /** Sent as `Last-Event-ID`, so the server resumes after it. */
  readonly lastEventId?: string;
}

/** An opened event stream (its body unread: the caller consumes and closes it), or one envelope. */
export type OpenResult =
  | { readonly ok: true; readonly status: number; readonly response: Response; readonly requestId?: string; readonly attempts: number }
  | { readonly ok: false; readonly envelope: Envelope };

/** What a verification read found; it never changes the call's own result. */
export interface Verification {
  readonly checked: boolean;
  /** The value at the first `terminal` (else `expect`) path of the last read, or the whole value. */
  readonly state?: unknown;
  readonly matched?: boolean;
  readonly polls?: number;
  /** Why the read could not be made or failed. */
  readonly envelope?: Envelope;
}

/** The result of a call: the decoded answer, or one envelope. */
export type OperationResult =
  | { readonly ok: true; readonly status: number; readonly value: unknown; readonly requestId?: string; readonly verification?: Verification; readonly attempts: number }
  | { readonly ok: false; readonly envelope: Envelope; readonly partial?: unknown };

/** What a call would do, shown to a person before they confirm it. */
export interface Preview {
  readonly operation: string;
  readonly safety: Tier;
  /** Credentials, keys and sensitive fields shown as "<redacted>". */
  readonly request: { readonly method: string; readonly url: string; readonly headers: Record<string, string>; readonly body?: unknown };
  readonly effects: string[];
  /** Authorizes this operation with exactly these arguments, once. */
  readonly confirmation_token: string;
  readonly expires_in_ms: number;
}

/** Calls the operations of one API under the runtime's rules. */
export interface OperationClient {
  call(id: string, args: unknown, options?: CallOptions): Promise<OperationResult>;
  /**
   * Opens an operation that answers text/event-stream (`stream` in its descriptor) under the same
   * rules as `call` up to the answer's head: preflight, key, confirmation, auth, retries. A 2xx event
   * stream comes back unread (for `resumableStream`), anything else as an envelope.
   */
  open(id: string, args: unknown, options?: OpenOptions): Promise<OpenResult>;
  preview(id: string, args: unknown): Preview | { ok: false; envelope: Envelope };
  /** The request of a call as the egress stage should see it (credentials as handles), or undefined when preflight fails. */
  describe(id: string, args: unknown): OutgoingRequest | undefined;
  operation(id: string): OperationDescriptor | undefined;
}
