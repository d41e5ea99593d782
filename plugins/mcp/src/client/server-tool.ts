import { z, type PrimitiveDefinition, type Redactor, type TaintTracker } from '@nodwyn/plugin-api';
import { callFailure } from './call-failure.js';
import { mcpClientErrors } from './codes.js';
import { serverTargets } from './connect-check.js';
import { calling } from './http-fetch.js';
import { describeTransport, SOURCE_LABEL } from './server-spec.js';
import { WAIT_MS, type McpTool, type ServerConnection } from './server-connection.js';
import { resultText, toToolResult, type McpCallResult } from './tool-result.js';
import { kindOf, opensWorld, tierOf } from './tool-tier.js';

/** The text layers a tool's own failure message passes before it goes into an envelope. */
export interface FailureLayers {
  readonly redactor: () => Redactor | undefined;
  readonly taint: () => TaintTracker | undefined;
}

/** Longest failure message of a tool kept in its envelope. */
const FAILURE_TEXT = 500;
/**
 * What the kernel allows a call beyond the server's own timeout: the wait for a server that is
 * (re)starting, and a second so the client's TIMEOUT envelope (which cancels the request) comes first.
 */
const KERNEL_GRACE_MS = WAIT_MS + 1_000;

/**
 * An `isError` result's message, for the envelope: envelopes do not pass the ingress text layers, so the
 * message passes L1 here and is withheld when it holds a remembered secret (or no text layer is loaded).
 */
function failureText(result: McpCallResult, session: string, layers: FailureLayers): string {
  const text = resultText(result).slice(0, FAILURE_TEXT);
  const redactor = layers.redactor();
  if (!redactor) return '(its message is not shown: no text layer is loaded)';
  if ((layers.taint()?.tagsOf(session, text).length ?? 0) > 0) return '(its message is withheld: it holds a secret)';
  return redactor.redact(text).text;
}

/** The guarded tool `name` of one MCP tool. Its input schema is built on first use. */
export function serverTool(name: string, connection: ServerConnection, tool: McpTool, layers: FailureLayers): PrimitiveDefinition<Record<string, unknown>> {
  const server = connection.spec.name;
  // A server the person does not take at its word (`read_only_hints = false`) has no reads but resource reads.
  const hints = connection.spec.readOnlyHints ? tool.annotations : { ...tool.annotations, readOnlyHint: false };
  const tier = tierOf(hints);
  const http = connection.spec.transport.kind === 'http';
  let input: z.ZodType<Record<string, unknown>> | undefined;
  const about = tool.description || tool.title || tool.name;
  return {
    name,
    description: `${about} (tool ${tool.name} of MCP server ${server})`.slice(0, 1024),
    get input() {
      input ??= z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
      return input;
    },
    tier,
    visibility: 'model',
    kind: kindOf(tier, hints),
    egress: http || opensWorld(tool.annotations),
    ...(http ? { egressTargets: () => serverTargets(connection.spec) } : {}),
    effect: () => `mcp:${server} ${tool.name}`,
    // What the person confirming a call is shown besides its arguments: which server, running or reached how.
    preview: () => ({ effects: [`calls ${tool.name} of MCP server ${server} (${SOURCE_LABEL[connection.spec.source]}: ${describeTransport(connection.spec)})`] }),
    timeoutMs: connection.spec.timeoutMs + KERNEL_GRACE_MS,
    handler: (args, call) =>
      calling.run(call.session, async () => {
        const failed = { server, tool: tool.name, operation: name, tier, timeoutMs: connection.spec.timeoutMs };
        let result: McpCallResult;
        try {
          result = await connection.call({ tool: tool.name, args, signal: call.signal, ...(call.progress ? { progress: call.progress } : {}) });
        } catch (error) {
          throw callFailure(error, failed);
        }
        if (result.isError === true) {
          throw mcpClientErrors.error('MCP_TOOL_FAILED', {
            operation: name,
            retryable: 'after_remediation',
            remediation: `The tool ${tool.name} of MCP server ${server} reported a failure: ${failureText(result, call.session, layers)}`,
          });
        }
        return toToolResult(result);
      }),
  };
}
