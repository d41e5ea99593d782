import { EnvelopeError, SECRET_HANDLE, z, type EgressTarget, type PluginContext, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import type { ServerSpec } from './server-spec.js';

/** The host primitive the connect check goes through. */
export const CONNECT_CHECK = 'mcp.connect';

const HANDLE = new RegExp(SECRET_HANDLE.source);

/** Whether the server's requests carry a keychain handle, which only a checked request may. */
export function carriesSecrets(spec: ServerSpec): boolean {
  return spec.transport.kind === 'http' && Object.values(spec.transport.headers).some((value) => HANDLE.test(value));
}

/**
 * Every request the streamable HTTP transport may send a server: messages (POST), the server's own event
 * stream (GET) and the session's end (DELETE), all to its URL with its headers (handles, never values).
 */
export const TRANSPORT_METHODS: readonly string[] = ['POST', 'GET', 'DELETE'];

/** The requests of an HTTP server with `methods` (a tool call: its POST). */
export function serverTargets(spec: ServerSpec, methods: readonly string[] = ['POST']): EgressTarget[] {
  const t = spec.transport;
  if (t.kind !== 'http') return [];
  const positions = Object.entries(t.headers).map(([name, value]) => ({ kind: 'header' as const, name, value }));
  return methods.map((method) => ({ method, url: t.url, positions }));
}

/**
 * `mcp.connect`, a host primitive that does nothing itself: calling it puts a server's requests before the
 * guard's egress stage, so the handshake, the listing, the event stream and the session's end, which carry
 * its credentials outside any tool call, go out only where the secret's binding names, method included.
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
      return serverTargets(found, TRANSPORT_METHODS);
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
