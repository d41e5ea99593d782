import { definePrimitive, type Keychain, type PrimitiveCallContext, type TaintTracker, type ToolResult } from '@nodwyn/plugin-api';
import { DEFAULT_TIMEOUT_MS, HttpRequestInput, MAX_TIMEOUT_MS } from './http-request-input.js';
import type { HopCheck } from './egress-stage.js';
import { egressTargetsOf, positionsOf, prepareRequest, type HttpRequestArgs, type PreparedRequest } from './request.js';
import { responseText, shownHeaders } from './response-text.js';
import { createScrubber } from './scrub.js';
import { handleNames, revealAll, revealedValues, substituteHandles, type RevealedSecret } from './secrets.js';
import { hopHeaders, send, type FollowHop, type RedirectHop } from './send.js';
import { transportFailure } from './transport-errors.js';
import { toWire } from './wire.js';

/** Where the tool gets its collaborators, at call time (the tracker is optional). */
export interface HttpRequestDeps {
  readonly keychain: () => Keychain;
  readonly tracker: () => TaintTracker | undefined;
  readonly checkHop: HopCheck;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const DESCRIPTION =
  'Sends one HTTP request and returns the status, selected headers and body (text, cut at 64 KiB). ' +
  'Put credentials as {{secret:NAME}} handles in header, query, body or basic_auth values; nodwyn substitutes them ' +
  'only if the secret class is bound to the destination. Same-origin redirects are followed (at most 5) when the bindings of the secrets they carry cover the new path and method; other redirects are returned, not followed.';

/**
 * The request a redirect hop sends, in handle form: the Location's URL (its query is the server's, so it
 * is neither a position nor substituted), the same headers, and the body unless the hop dropped it.
 */
function hopRequest(request: PreparedRequest, hop: RedirectHop): PreparedRequest {
  const base = new URL(hop.url);
  base.search = '';
  base.hash = '';
  return { ...request, method: hop.method, base, query: [], headers: hopHeaders(request.headers, hop), body: hop.bodyless ? { kind: 'none' } : request.body };
}

/** Follows a hop only when the binding of every secret it carries covers its path, method and positions. */
function follower(deps: HttpRequestDeps, context: PrimitiveCallContext, request: PreparedRequest, secrets: ReadonlyMap<string, RevealedSecret>): FollowHop {
  return async (hop) => {
    const next = hopRequest(request, hop);
    const call = { session: context.session, id: context.callId, name: 'http_request', taint: context.taint };
    const refused = await deps.checkHop(call, { method: hop.method, url: hop.url.href, positions: positionsOf(next) });
    if (refused !== undefined) {
      return {
        note: `The redirect to ${hop.url.pathname} (${hop.method}) was not followed: it would ${refused}, and no binding covers that. If that URL should be fetched, call http_request on it; it is checked like any request.`,
      };
    }
    return { ...toWire(substituteHandles(next, secrets)), url: hop.url };
  };
}

async function run(deps: HttpRequestDeps, args: HttpRequestArgs, context: PrimitiveCallContext): Promise<ToolResult> {
  const request = prepareRequest(args);
  const secrets = await revealAll(handleNames(request), deps.keychain());
  const sent = substituteHandles(request, secrets);
  const revealed = revealedValues(secrets, request, sent);
  const tracker = revealed.length > 0 ? deps.tracker() : undefined;
  for (const item of revealed) tracker?.remember(context.session, item.value, [item.class], { pinned: true });
  const scrub = createScrubber(revealed);
  const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const outcome = await send(toWire(sent), AbortSignal.any([context.signal, deadline]), follower(deps, context, request, secrets));
    const content = await responseText(outcome, scrub);
    return { content, data: { status: outcome.response.status, headers: Object.fromEntries(shownHeaders(outcome.response, scrub)) } };
  } catch (error) {
    throw transportFailure(error, { scrub, cancel: context.signal, deadline, timeoutMs, host: request.base.host });
  }
}

/**
 * `http_request`: the model's way to call an HTTP API with a credential it never sees. The egress stage
 * checks `egressTargets` before the handler runs; the handler substitutes handles at the last hop.
 */
export function createHttpRequestTool(deps: HttpRequestDeps) {
  return definePrimitive<HttpRequestArgs>({
    name: 'http_request',
    description: DESCRIPTION,
    input: HttpRequestInput,
    tier: 'mutate',
    classify: (args) => (READ_METHODS.has(args.method) ? 'read' : 'mutate'),
    visibility: 'model',
    kind: 'fetch',
    // What "always" covers: this method to this host (any path), never another host or method.
    effect: (args) => `http:${args.method.toUpperCase()} ${new URL(args.url).host}`,
    egress: true,
    egressTargets: egressTargetsOf,
    // Above the largest timeout_ms, so the tool's own, clearer timeout envelope fires first.
    timeoutMs: MAX_TIMEOUT_MS + 5_000,
    handler: (args, context) => run(deps, args, context),
  });
}
