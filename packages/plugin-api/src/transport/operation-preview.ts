import { SECRET_HANDLE } from '../egress.js';
import { CONFIRMATION_TOKEN_TTL_MS, type ConfirmationTokens } from './confirmation-token.js';
import { DEFAULT_IDEMPOTENCY_HEADER } from './idempotency-key.js';
import { argsDigest } from './operation-digest.js';
import { operationEffects } from './operation-effects.js';
import type { CallArgs } from './operation-preflight.js';
import { REDACTED } from './operation-redaction.js';
import { renderRequest } from './operation-request.js';
import type { AuthProvider, OperationDescriptor, Preview } from './operation-types.js';

/**
 * What a person confirms (docs/architecture.md §8): the request with credentials, handles, the
 * idempotency key and sensitive fields shown as REDACTED, the effects, and a token bound to this
 * operation and the digest of exactly these arguments.
 */
export function buildPreview(operation: OperationDescriptor, args: CallArgs, auth: AuthProvider | undefined, tokens: ConfirmationTokens): Preview {
  const rendered = renderRequest(operation, args, true);
  const handle = new RegExp(SECRET_HANDLE.source);
  const headers: Record<string, string> = {};
  for (const [name, value] of rendered.headers) headers[name] = handle.test(value) ? REDACTED : value;
  for (const [name] of auth?.describe?.(operation) ?? []) headers[name] = REDACTED;
  const policy = operation.idempotency?.policy ?? 'none';
  if (operation.tier !== 'read' && policy !== 'none') headers[operation.idempotency?.header ?? DEFAULT_IDEMPOTENCY_HEADER] = REDACTED;
  return {
    operation: operation.id,
    safety: operation.tier,
    request: { method: rendered.method, url: rendered.url, headers, ...(rendered.bodyValue === undefined ? {} : { body: rendered.bodyValue }) },
    effects: operationEffects(operation, args),
    confirmation_token: tokens.issue(operation.id, argsDigest(args)),
    expires_in_ms: CONFIRMATION_TOKEN_TTL_MS,
  };
}
