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
