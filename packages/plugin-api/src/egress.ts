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
