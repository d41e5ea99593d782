import { EnvelopeError, SECRET_HANDLE, type Confirmer, type EgressSender, type GuardedFetch, type OutgoingRequest } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';
import type { Guard } from '../guard/guard.js';

/** What one guarded fetch is bound to. */
export interface GuardedFetchOptions {
  readonly guard: Guard;
  readonly session: string;
  /** What sends the requests, named in egress decisions (`model.stream`, `judge.model`). */
  readonly name: string;
  readonly confirmer?: Confirmer;
  /** The egress plugin's last hop, when one is loaded. */
  readonly sender: () => EgressSender | undefined;
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

async function bodyOf(input: string | URL | Request, init: RequestInit | undefined): Promise<string | Uint8Array | undefined> {
  const body = init?.body ?? (input instanceof Request && input.body ? new Uint8Array(await input.arrayBuffer()) : undefined);
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  // SDKs send JSON strings; anything else (a stream, form data) is read once into bytes.
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** Describes a fetch call as the request it will send. */
async function describe(input: string | URL | Request, init: RequestInit | undefined): Promise<OutgoingRequest> {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const body = await bodyOf(input, init);
  return { method, url: urlOf(input), headers: [...headers], ...(body === undefined ? {} : { body }) };
}

/**
 * The kernel's guarded fetch (docs/architecture.md §8): every request crosses the guard's egress stages with
 * its headers as positions, so a `{{secret:NAME}}` handle leaves only where the binding table binds its
 * class; the handles are replaced at the last hop by the egress plugin's sender. A request without handles
 * goes out directly, never following a redirect (the SDK sees the 3xx). The body is the model's window,
 * which the text layers already filtered; it is not inspected again.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  return async (input, init) => {
    const request = await describe(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;
    await options.guard.checkEgress({
      session: options.session,
      name: options.name,
      targets: [{ method: request.method, url: request.url, positions: request.headers.map(([name, value]) => ({ kind: 'header', name, value })) }],
      confirmer: options.confirmer,
      signal,
    });
    const carriesHandle = request.headers.some(([, value]) => new RegExp(SECRET_HANDLE.source).test(value));
    if (carriesHandle) {
      const sender = options.sender();
      if (!sender) {
        throw new EnvelopeError({
          category: 'PRECONDITION_FAILED',
          code: KernelCodes.EGRESS_SENDER_MISSING,
          operation: options.name,
          remediation: 'The request carries a {{secret:NAME}} handle but no egress plugin is loaded to substitute it at the last hop. Enable the egress plugin in config.toml.',
        });
      }
      return sender.send(options.session, request, signal);
    }
    return fetch(request.url, { method: request.method, headers: request.headers.map(([name, value]) => [name, value]), body: request.body, redirect: 'manual', signal });
  };
}
