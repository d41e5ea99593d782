import { z } from 'zod';

/**
 * The ACP (Agent Client Protocol v1) requests nodwyn's agent accepts, as zod schemas: the fields nodwyn
 * reads are checked, everything else (`_meta`, fields of later protocol versions) passes through, as
 * ACP's extensibility rules ask.
 */
const meta = { _meta: z.record(z.string(), z.unknown()).nullish() };
const sessionId = z.string().min(1).max(200);
/** An absolute path (ACP: "All paths in ACP payloads should be absolute"). */
const absolutePath = z.string().min(1).max(4096).refine((p) => p.startsWith('/'), 'an absolute path');

/** An MCP server a client asks the agent to connect: the MCP plugin starts stdio and streamable HTTP ones (see the server's clientMcpServers). */
const McpServerSchema = z.object({ name: z.string() }).passthrough();

/** `session/new` params. */
export const NewSessionParamsSchema = z.object({ cwd: absolutePath, mcpServers: z.array(McpServerSchema).default([]), ...meta }).passthrough();

/** `session/load` params. */
export const LoadSessionParamsSchema = z.object({ sessionId, cwd: absolutePath, mcpServers: z.array(McpServerSchema).default([]), ...meta }).passthrough();

/** `session/list` params (optional cwd filter and paging cursor). */
export const ListSessionsParamsSchema = z.object({ cwd: absolutePath.nullish(), cursor: z.string().nullish(), ...meta }).passthrough();

/** One content block of a prompt; nodwyn reads text, resource links and embedded text resources. */
export const PromptBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string().optional() }).passthrough(),
  z
    .object({
      type: z.literal('resource'),
      resource: z.object({ uri: z.string(), text: z.string().optional(), blob: z.string().optional(), mimeType: z.string().nullish() }).passthrough(),
    })
    .passthrough(),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() }).passthrough(),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() }).passthrough(),
]);
/** One content block of a prompt. */
export type PromptBlock = z.infer<typeof PromptBlockSchema>;

/** `session/prompt` params. */
export const PromptParamsSchema = z.object({ sessionId, prompt: z.array(PromptBlockSchema).min(1), ...meta }).passthrough();

/** `session/cancel` notification params. */
export const CancelParamsSchema = z.object({ sessionId, ...meta }).passthrough();
