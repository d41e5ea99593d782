import type { ApplyResult, Confirmer, PrimitiveInfo, ToolProgress } from '@nodwyn/plugin-api';

/** Who connected, as the MCP client named itself in `initialize`. */
export interface McpClientInfo {
  readonly name: string;
  readonly version: string;
}

/** One `tools/call` of a connected client. */
export interface McpToolCall {
  readonly name: string;
  readonly args: unknown;
  /** Aborted when the client cancels the request (`notifications/cancelled`) or goes away. */
  readonly signal: AbortSignal;
  /** Who answers confirmations (MCP elicitation); without one, a call that needs a confirmation is denied. */
  readonly confirmer?: Confirmer;
  /** Hears the tool's own reports of how far it has got (their messages already through the text layers). */
  readonly progress?: (update: ToolProgress) => void;
}

/** The tool calls of one connection: a nodwyn session of its own, every call logged in it. */
export interface McpToolSession {
  /**
   * One call through the guard as a model's call (a remote agent is not a person). A result's `data` must
   * already be through the text layers: the server sends it to the client as `structuredContent`.
   */
  call(call: McpToolCall): Promise<ApplyResult>;
}

/**
 * What the MCP server serves, provided by the composition root (`nodwyn mcp serve` over a workspace's
 * kernel): the server itself knows nothing of kernels or sessions.
 */
export interface McpToolHost {
  /** The model-visible tools now; asked again on every `tools/list` and change check. */
  tools(): readonly PrimitiveInfo[];
  /** The session of one connection, opened by its first `tools/call`. */
  session(client: McpClientInfo): McpToolSession;
}
