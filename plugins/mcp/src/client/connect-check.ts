import { EnvelopeError, SECRET_HANDLE, z, type EgressTarget, type PluginContext, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import type { ServerSpec } from './server-spec.js';

/** The host primitive the connect check goes through. */
export const CONNECT_CHECK = 'mcp.connect';

const HANDLE = new RegExp(SECRET_HANDLE.source);

/** Whether the server's requests carry a keychain handle, which only a checked request may. */
export function carriesSecrets(spec: ServerSpec): boolean {
  return spec.transport.kind === 'http' && Object.values(spec.transport.headers).some((value) => HANDLE.test(value));
}

/** The request an HTTP server's messages go out as: its URL, with its headers (handles, never values). */
export function serverTargets(spec: ServerSpec): EgressTarget[] {
  const t = spec.transport;
  if (t.kind !== 'http') return [];
  return [{ method: 'POST', url: t.url, positions: Object.entries(t.headers).map(([name, value]) => ({ kind: 'header' as const, name, value })) }];
}

/**
 * `mcp.connect`, a host primitive that does nothing itself: calling it puts a server's request before the
 * guard's egress stage, so the handshake and listing an HTTP server needs before any tool call (and that
 * carry its credentials) go out only to a destination the secret's binding names, as a tool call's do.
 */
export function connectCheckPrimitive(spec: (name: string) => ServerSpec | undefined): PrimitiveDefinition<{ server: string }> {
  return {
    name: CONNECT_CHECK,
    description: "Checks that an MCP server's credentials may go to it, before nodwyn connects.",
    input: z.object({ server: z.string().max(64) }).strict(),
    tier: 'read',
    visibility: 'host',
    egress: true,
    egressTargets: ({ server }) => {
      const found = spec(server);
      if (!found) throw new Error(`mcp.connect: no server ${server}`);
      return serverTargets(found);
    },
    handler: ({ server }) => ({ content: `checked ${server}` }),
  };
}

/** Runs the check for `spec` through the guard; a denial is thrown as its envelope. */
export function connectChecker(ctx: PluginContext): (spec: ServerSpec) => Promise<void> {
  let session: string | undefined;
  return async (spec) => {
    session ??= ctx.calls.session('mcp: server connections');
    const result = await ctx.calls.apply({ session, name: CONNECT_CHECK, args: { server: spec.name } });
    if (!result.ok) throw new EnvelopeError(result.envelope);
  };
}
