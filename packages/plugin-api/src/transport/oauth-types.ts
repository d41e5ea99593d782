/** An oauth2 scheme's authorization code flow, as an API describes it. */
export interface OAuthFlow {
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  /** Where refreshes go; `tokenUrl` when absent. */
  readonly refreshUrl?: string;
  /** The scopes asked for by default. */
  readonly scopes: readonly string[];
}

/** The registered client: confidential with a secret (HTTP Basic), public without (client_id in the form). */
export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly redirectUri?: string;
}

/** Stored tokens. Never in an envelope, a diagnostic or a log. */
export interface OAuthTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Epoch ms when the access token expires, when the server said. */
  readonly expiresAt?: number;
  readonly scope?: string;
}

/** What a grant tells the caller: no secret. */
export interface TokenMetadata {
  readonly expiresAt?: number;
  readonly scope?: string;
  /** A refresh token is stored. */
  readonly refreshable: boolean;
}

/** Where tokens are kept (the keychain: `keychainTokenStore`; tests: `memoryTokenStore`). */
export interface OAuthTokenStore {
  get(): Promise<OAuthTokens | undefined>;
  set(tokens: OAuthTokens): Promise<void>;
  delete(): Promise<void>;
  /**
   * The `{{secret:NAME}}` handle requests carry instead of the access token, when the store keeps it
   * where the egress edge can reveal it; without one requests carry the value.
   */
  readonly accessHandle?: string;
}

/** The last hop of a token request (fetch itself, or a guarded fetch). */
export type OAuthFetch = (url: string, init: RequestInit) => Promise<Response>;

/** A store in memory, for tests and for callers that keep tokens only for a process's life. */
export function memoryTokenStore(initial?: OAuthTokens): OAuthTokenStore {
  let tokens = initial;
  return {
    get: async () => tokens,
    set: async (next) => void (tokens = next),
    delete: async () => void (tokens = undefined),
  };
}
