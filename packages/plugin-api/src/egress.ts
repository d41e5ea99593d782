/** Where a value sits in an outgoing request; the binding table allows a class per position. */
export type EgressPositionKind = 'header' | 'query' | 'body' | 'basic';

/** One value of an outgoing request, as written by the caller (it may hold `{{secret:NAME}}` handles). */
export interface EgressPosition {
  readonly kind: EgressPositionKind;
  /** Header name, query parameter, JSON body field path (`$.token`), or `user`/`password` for basic auth. */
  readonly name: string;
  readonly value: string;
}

/** A request a primitive is about to send, described for the egress stage before it runs. */
export interface EgressTarget {
  readonly method: string;
  readonly url: string;
  readonly positions: readonly EgressPosition[];
}

/** The handle syntax tools, providers and config carry instead of secret values. */
export const SECRET_HANDLE = /\{\{secret:([A-Za-z0-9_.-]{1,64})\}\}/g;

/** A request for the last hop, as the kernel's guarded fetch hands it over after the egress check. */
export interface OutgoingRequest {
  readonly method: string;
  readonly url: string;
  /** Header values may hold `{{secret:NAME}}` handles. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string | Uint8Array;
}

/**
 * The last hop (plugin `egress`): replaces `{{secret:NAME}}` handles in the headers with their values and
 * sends the request, following same-origin redirects of GET and HEAD only (a request of another method
 * never follows a redirect: its 3xx comes back as it is). The kernel calls it only after the guard's
 * egress stages allowed the request; the values it reveals are remembered by the taint tracker.
 */
export interface EgressSender {
  send(session: string, request: OutgoingRequest, signal: AbortSignal | undefined): Promise<Response>;
}

const HANDLE = new RegExp(SECRET_HANDLE.source);

/** Where a plugin's request goes out, by whether it carries a handle. */
export interface LastHop {
  /** The egress plugin's sender, when it is loaded. */
  readonly sender: EgressSender | undefined;
  /** The session the request is sent for (the sender remembers revealed values per session). */
  readonly session: string;
  readonly signal: AbortSignal | undefined;
  /** Sends a request without a handle (the platform's fetch, never following redirects it should not). */
  readonly direct: () => Promise<Response>;
  /** The plugin's error when a handle must be substituted and no sender is loaded. */
  readonly missing: () => Error;
}

/**
 * A plugin's last hop (openapi, mcp): a request whose headers carry a `{{secret:NAME}}` handle goes through
 * the egress sender, which alone substitutes it, after the guard's egress stage checked the call; a
 * request without one goes out `direct`. The secret value never passes through the plugin.
 */
export function sendThroughEgress(request: OutgoingRequest, hop: LastHop): Promise<Response> {
  if (!request.headers.some(([, value]) => HANDLE.test(value))) return hop.direct();
  if (!hop.sender) return Promise.reject(hop.missing());
  return hop.sender.send(hop.session, request, hop.signal);
}
