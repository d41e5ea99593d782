import { randomUUID } from 'node:crypto';
import { SECRET_HANDLE, type EgressPosition, type EgressSender, type Keychain, type OutgoingRequest, type TaintTracker } from '@nodwyn/plugin-api';
import type { HopCheck } from './egress-stage.js';
import { handlesIn, revealAll, type RevealedSecret } from './secrets.js';
import { hopHeaders, send, type FollowHop } from './send.js';

/** Where the sender gets its collaborators, at call time. */
export interface EgressSenderDeps {
  readonly keychain: () => Keychain;
  readonly tracker: () => TaintTracker | undefined;
  readonly checkHop: HopCheck;
}

type Headers = readonly (readonly [string, string])[];

function substitute(headers: Headers, secrets: ReadonlyMap<string, RevealedSecret>): (readonly [string, string])[] {
  return headers.map(([name, value]) => [name, value.replace(SECRET_HANDLE, (handle, secret: string) => secrets.get(secret)?.value ?? handle)] as const);
}

/** Methods whose redirects the sender follows; any other request may change something and never follows one. */
const FOLLOWED = new Set(['GET', 'HEAD']);

/**
 * A same-origin hop of a GET or HEAD keeps the handles' values only where their binding covers its path
 * and method; a redirect of any other method is not followed.
 */
function follower(deps: EgressSenderDeps, session: string, request: OutgoingRequest, secrets: ReadonlyMap<string, RevealedSecret>): FollowHop {
  return async (hop) => {
    if (!FOLLOWED.has(request.method.toUpperCase())) return { note: `The redirect to ${hop.url.pathname} was not followed: a ${request.method} request never follows a redirect.` };
    const headers = hopHeaders(request.headers, hop);
    const positions = headers.map(([name, value]): EgressPosition => ({ kind: 'header', name, value }));
    const refused = await deps.checkHop({ session, id: randomUUID(), name: 'egress.sender', taint: [] }, { method: hop.method, url: hop.url.href, positions });
    if (refused !== undefined) return { note: `The redirect to ${hop.url.pathname} (${hop.method}) was not followed: it would ${refused}.` };
    return { method: hop.method, url: hop.url, headers: substitute(headers, secrets), ...(hop.bodyless || request.body === undefined ? {} : { body: request.body }) };
  };
}

/**
 * The last hop of the kernel's guarded fetch (model providers, the judge) and of the operation runtime's
 * calls: replaces `{{secret:NAME}}` handles in header values, remembers each revealed value with the
 * taint tracker so an echo of it is caught, and sends. A GET or HEAD follows same-origin redirects only,
 * each hop checked against the bindings like the first; any other method follows none, because a
 * mutation never follows a redirect (docs/architecture.md §8). The guard's egress stages have already
 * checked the first request; a redirect that is not followed comes back as the 3xx, never followed with
 * the credential.
 */
export function createEgressSender(deps: EgressSenderDeps): EgressSender {
  return {
    async send(session: string, request: OutgoingRequest, signal: AbortSignal | undefined): Promise<Response> {
      const names = [...new Set(request.headers.flatMap(([, value]) => handlesIn(value)))];
      const secrets = await revealAll(names, deps.keychain());
      const tracker = secrets.size > 0 ? deps.tracker() : undefined;
      for (const secret of secrets.values()) tracker?.remember(session, secret.value, [secret.class], { pinned: true });
      const first = { method: request.method, url: new URL(request.url), headers: substitute(request.headers, secrets), body: request.body };
      const outcome = await send(first, signal ?? new AbortController().signal, follower(deps, session, request, secrets));
      return outcome.response;
    },
  };
}
