import { SECRET_HANDLE, type EgressSender, type Keychain, type OutgoingRequest, type TaintTracker } from '@nodwyn/plugin-api';
import { handlesIn, revealAll } from './secrets.js';
import { send } from './send.js';

/** Where the sender gets its collaborators, at call time. */
export interface EgressSenderDeps {
  readonly keychain: () => Keychain;
  readonly tracker: () => TaintTracker | undefined;
}

/**
 * The last hop of the kernel's guarded fetch (model providers, the judge): replaces `{{secret:NAME}}`
 * handles in header values, remembers each revealed value with the taint tracker so an echo of it is
 * caught, and sends with same-origin redirects only. The guard's egress stages have already checked the
 * request; a cross-origin redirect comes back as the 3xx, never followed with the credential.
 */
export function createEgressSender(deps: EgressSenderDeps): EgressSender {
  return {
    async send(session: string, request: OutgoingRequest, signal: AbortSignal | undefined): Promise<Response> {
      const names = [...new Set(request.headers.flatMap(([, value]) => handlesIn(value)))];
      const secrets = await revealAll(names, deps.keychain());
      const tracker = secrets.size > 0 ? deps.tracker() : undefined;
      for (const secret of secrets.values()) tracker?.remember(session, secret.value, [secret.class], { pinned: true });
      const headers = request.headers.map(([name, value]) => [name, value.replace(SECRET_HANDLE, (handle, secret: string) => secrets.get(secret)?.value ?? handle)] as const);
      const outcome = await send({ method: request.method, url: new URL(request.url), headers, body: request.body }, signal ?? new AbortController().signal);
      return outcome.response;
    },
  };
}
