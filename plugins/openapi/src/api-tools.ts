import { AsyncLocalStorage } from 'node:async_hooks';
import { EnvelopeError, sendThroughEgress, z, type EgressSender, type EgressTarget, type Keychain, type PluginStore, type PrimitiveDefinition, type Tier } from '@nodwyn/plugin-api';
import { argsDigest, createOperationClient, directOperationFetch, pluginStoreIdempotency, type OperationClient, type OperationFetch } from '@nodwyn/plugin-api/transport';
import { apiAuth } from './api-auth.js';
import { apiOAuthProvider } from './api-oauth.js';
import type { LoadedApi } from './api-load.js';
import { callStreamed, streamBounds } from './api-stream.js';
import { openApiError } from './errors.js';
import type { MappedOperation } from './operation-map.js';

/** What the tools of the loaded APIs share. */
export interface ToolDeps {
  /** The egress plugin's last hop, which substitutes `{{secret:NAME}}` handles. */
  readonly sender: () => EgressSender | undefined;
  readonly store: PluginStore;
  /** The keychain, where OAuth2 tokens and client secrets live. */
  readonly keychain: () => Keychain | undefined;
}

const CONFIRMED: ReadonlySet<Tier> = new Set(['destructive', 'irreversible']);
const STREAM_TIMEOUT_MARGIN_MS = 5_000;

/** The session of the call being served, for the sender (one client serves every session). */
const calling = new AsyncLocalStorage<string>();

/**
 * The client's last hop: a request carrying a handle goes through the egress sender (which substitutes it
 * after the guard's egress stage checked the request); one without goes out directly, never following a
 * redirect, like the kernel's guarded fetch (packages/kernel/src/turn/guarded-fetch.ts).
 */
function lastHop(deps: ToolDeps): OperationFetch {
  return (request, signal) =>
    sendThroughEgress(request, {
      sender: deps.sender(),
      session: calling.getStore() ?? 'openapi',
      signal,
      direct: () => directOperationFetch(request, signal),
      missing: () =>
        openApiError('OPENAPI_SENDER_MISSING', {
          operation: 'openapi.call',
          remediation: 'The request carries a {{secret:NAME}} handle but no egress plugin is loaded to substitute it. Enable the egress plugin.',
        }),
    });
}

function targetsOf(client: OperationClient, op: MappedOperation, args: unknown): EgressTarget[] {
  const requests = [client.describe(op.descriptor.id, args)];
  // The verification read goes to the same API with the same credentials: the egress stage checks it too.
  const verify = op.descriptor.verify ? client.operation(op.descriptor.verify.operation) : undefined;
  if (verify) requests.push({ method: verify.method, url: verify.url.replace(/\{[^}]*\}/g, '_'), headers: requests[0]?.headers.filter(([name]) => !/idempotency/i.test(name)) ?? [] });
  return requests
    .filter((r) => r !== undefined)
    .map((r) => ({ method: r.method, url: r.url, positions: r.headers.map(([name, value]) => ({ kind: 'header' as const, name, value })) }));
}

function effectOf(op: MappedOperation): string {
  const url = new URL(op.descriptor.url.replace(/\{([^}]*)\}/g, '_$1_'));
  return `http:${op.method} ${url.host}${op.path}`;
}

/** A confirmation token for one call of `id` with `args`, from the runtime's preview. */
function tokenOf(client: OperationClient, id: string, args: unknown): string {
  const preview = client.preview(id, args);
  if (!('confirmation_token' in preview)) throw new EnvelopeError(preview.envelope);
  return preview.confirmation_token;
}

/** The guarded tool of one operation. Its input schema is built on first use: a large API has many. */
function toolOf(client: OperationClient, op: MappedOperation): PrimitiveDefinition<Record<string, unknown>> {
  let input: z.ZodType<Record<string, unknown>> | undefined;
  const id = op.descriptor.id;
  return {
    name: op.tool,
    description: `${op.description || op.operationId} (${op.method} ${op.path})`.slice(0, 1024),
    get input() {
      input ??= z.fromJSONSchema(op.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
      return input;
    },
    tier: op.descriptor.tier,
    visibility: 'model',
    kind: op.kind,
    egress: true,
    egressTargets: (args) => targetsOf(client, op, args),
    effect: () => effectOf(op),
    preview: (args) => {
      const preview = client.preview(id, args);
      return { effects: 'confirmation_token' in preview ? [`${preview.request.method} ${preview.request.url}`, ...preview.effects] : [] };
    },
    // A stream's collection has its own time budget; the call may take that long and a little more.
    ...(op.stream ? { timeoutMs: streamBounds(op.stream).maxMs + STREAM_TIMEOUT_MARGIN_MS } : {}),
    handler: (args, call) =>
      calling.run(call.session, async () => {
        // The guard asked the person (tier) before this runs; the token makes the runtime's rule hold too.
        // A token authorizes one request, so each reconnect of a stream takes a new one.
        const options = () => {
          const confirmationToken = CONFIRMED.has(op.descriptor.tier) ? tokenOf(client, id, args) : undefined;
          // A repeat of the same arguments in a session reuses its key; another session's is a new intent.
          return { signal: call.signal, logicalId: `${call.session}:${argsDigest(args)}`, ...(confirmationToken ? { confirmationToken } : {}) };
        };
        if (op.stream) return callStreamed(client, op, args, call, options);
        const result = await client.call(id, args, { ...options(), ...(op.descriptor.verify ? { verify: true } : {}) });
        if (!result.ok) throw new EnvelopeError(result.envelope);
        const shown = result.verification ? { value: result.value ?? null, verification: result.verification } : (result.value ?? null);
        return { content: JSON.stringify(shown), data: { status: result.status, attempts: result.attempts } };
      }),
  };
}

/** The tools of one loaded API, on one operation client with the person's credentials and the plugin's store. */
export function apiTools(api: LoadedApi, deps: ToolDeps): PrimitiveDefinition<Record<string, unknown>>[] {
  const client = createOperationClient({
    operations: api.operations.map((op) => op.descriptor),
    fetch: lastHop(deps),
    idempotency: pluginStoreIdempotency(deps.store),
    auth: apiAuth(api, api.oauth ? apiOAuthProvider(api.name, api.document, api.oauth, deps.keychain) : undefined),
  });
  return api.operations.map((op) => toolOf(client, op));
}
