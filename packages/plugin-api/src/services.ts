import type { EgressSender } from './egress.js';
import { createToken } from './tokens.js';

/** A secret as listed: never its value. */
export interface SecretInfo {
  readonly name: string;
  readonly class: string;
  readonly created: string;
  readonly lastUsed?: string;
}

/**
 * The keychain (plugin `keychain`). Values leave it only through `reveal`, which the egress edge calls at
 * the last hop after the binding check; getting this service needs the `secrets.reveal` permission.
 * `store` and `remove` are how a plugin keeps credentials it obtains itself (OAuth2 tokens), so requests
 * carry them as `{{secret:NAME}}` handles bound like any secret (docs/architecture.md §8).
 */
export interface Keychain {
  list(): Promise<readonly SecretInfo[]>;
  info(name: string): Promise<SecretInfo | undefined>;
  reveal(name: string): Promise<string>;
  /** Stores `value` under `name` and `cls`, replacing a secret of that name; the first secret creates the keychain. */
  store(name: string, cls: string, value: string): Promise<void>;
  /** Removes a secret; false when there was none of that name. */
  remove(name: string): Promise<boolean>;
}

/** The keychain service. */
export const KeychainToken = createToken<Keychain>('keychain', { permission: 'secrets.reveal' });

/** One detected secret: its class and where it was, never its value. */
export interface RedactionFinding {
  readonly class: string;
  readonly start: number;
  readonly end: number;
}

/** The deterministic text layer (L1): replaces each detected secret with `[REDACTED <class>]`. */
export interface Redactor {
  redact(text: string): { readonly text: string; readonly findings: readonly RedactionFinding[] };
}

/** The L1 redaction service. */
export const RedactorToken = createToken<Redactor>('redactor');

/**
 * Taint tracking (L2): values that came from the keychain or that L1 flagged are remembered (in memory,
 * never logged) under sorted tag sets, so an egress that carries one can be checked against its bindings.
 */
export interface TaintTracker {
  /**
   * Remembers `value` under `tags`. `pinned` (keychain values) is never forgotten, however many values
   * follow; the others may be, oldest first, beyond the tracker's limit.
   */
  remember(session: string, value: string, tags: readonly string[], options?: { readonly pinned?: boolean }): void;
  /** The sorted tags of every remembered value found in `text`, also in common encodings. */
  tagsOf(session: string, text: string): readonly string[];
  /**
   * The sorted tags of the remembered values found in `text`, and only those: unlike `tagsOf`, L1's
   * `[REDACTED <class>]` placeholders do not count. The answer depends on secret values, so whoever shows
   * it to the model gives away a bit; the turn floor withholds model output on it and counts a strike.
   */
  matches(session: string, text: string): readonly string[];
}

/** The L2 taint service. */
export const TaintToken = createToken<TaintTracker>('taint');

/** The egress last hop, which reveals secrets: getting it needs the `secrets.reveal` permission. */
export const EgressSenderToken = createToken<EgressSender>('egress.sender', { permission: 'secrets.reveal' });

/**
 * An MCP server a front end hands over for the person: an editor's own servers, which ACP clients send
 * with `session/new` and `session/load`. A server has a `command` (stdio) or a `url` (streamable HTTP).
 */
export interface ClientMcpServer {
  readonly name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The MCP client plugin's servers, for front ends that hand over their own. */
export interface McpServers {
  /**
   * Starts the servers not already running under their names (the person's own config wins a name) and
   * resolves once each new one has listed its tools, or after a few seconds; `client` names who sent them.
   */
  attach(servers: readonly ClientMcpServer[], client: string): Promise<void>;
}

/** The MCP servers service (plugin `mcp`); getting it needs the `process.spawn` permission. */
export const McpServersToken = createToken<McpServers>('mcp.servers', { permission: 'process.spawn' });
