/**
 * The operation an `AuthProvider` is asked about. Part A of the operation runtime describes operations in
 * full (`OperationDescriptor`); a provider needs only what every description has.
 */
export interface AuthOperation {
  /** Operation id, e.g. "acme.createPet". */
  readonly id: string;
}

/**
 * Adds credentials to an operation's requests (docs/architecture.md §8). Header values may be
 * `{{secret:NAME}}` handles, which the egress edge replaces at the last hop.
 */
export interface AuthProvider {
  /** The credential headers of one request. */
  headers(operation: AuthOperation, signal: AbortSignal): Promise<readonly (readonly [string, string])[]>;
  /** After a 401: refresh once; true when a new credential is ready (the runtime resends once). */
  unauthorized?(operation: AuthOperation, signal: AbortSignal): Promise<boolean>;
}
