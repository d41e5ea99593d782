import { methods, type RequestPermissionRequest, type RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { PermissionHandler } from '@nodwyn/protocol';
import { clientRequestError } from './protocol-error.js';

const WITHDRAWN: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/**
 * Answers `session/request_permission` with `handler`. Without one the question is refused with an
 * error, so the agent keeps it for the other attached clients. When the agent withdraws it
 * (`$/cancel_request`, because another client answered first), the handler's signal aborts and the
 * answer is ACP's `cancelled` outcome at once, whatever the handler does next.
 */
export function answerPermission(handler: PermissionHandler | undefined, request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
  if (handler === undefined) {
    throw clientRequestError('CLIENT_PERMISSION_UNHANDLED', {
      operation: methods.client.session.requestPermission,
      remediation: 'This client answers no permission questions; the question stays open for the other clients attached to the session, which answer with _nodwyn/confirmation/answer.',
    });
  }
  if (signal.aborted) return Promise.resolve(WITHDRAWN);
  return new Promise((resolve, reject) => {
    const withdrawn = () => resolve(WITHDRAWN);
    signal.addEventListener('abort', withdrawn, { once: true });
    Promise.resolve()
      .then(() => handler(request, signal))
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', withdrawn));
  });
}
