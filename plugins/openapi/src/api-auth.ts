import type { AuthProvider, OperationDescriptor } from '@nodwyn/plugin-api/transport';
import type { LoadedApi } from './api-load.js';
import { deref, isObject, securitySchemes } from './schema-refs.js';

type Header = readonly [string, string];

/**
 * The header one security scheme adds with the keychain handle the person configured for it, or
 * undefined when nodwyn cannot carry it: the egress sender substitutes handles in header values only, so
 * an apiKey in a query or cookie is not supported; an oauth2 scheme is the login's (api-oauth.ts, docs/openapi.md "Auth").
 */
function schemeHeader(scheme: unknown, handle: string): Header | undefined {
  if (!isObject(scheme)) return undefined;
  const value = `{{${handle}}}`;
  if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') return [scheme.name, value];
  if (scheme.type === 'http' && typeof scheme.scheme === 'string') {
    const kind = scheme.scheme.toLowerCase();
    if (kind === 'bearer') return ['Authorization', `Bearer ${value}`];
    // The secret holds base64(user:password): a handle is substituted whole, never encoded by the sender.
    if (kind === 'basic') return ['Authorization', `Basic ${value}`];
  }
  return undefined;
}

/**
 * An auth provider from the document's security schemes and the person's `auth` table (scheme name →
 * `secret:NAME`), plus the oauth2 scheme the person logged in with (`oauth`, its provider): for each
 * operation, the first of its security requirements whose every scheme has a configured, supported
 * credential. Headers carry handles; values are substituted at the last hop, and only where the binding
 * table binds the secret's class to the destination (docs/architecture.md §6).
 */
export function apiAuth(api: LoadedApi, oauth?: AuthProvider): AuthProvider {
  const schemes = securitySchemes(api.document);
  const byOperation = new Map<string, { readonly headers: Header[]; readonly oauth: boolean }>();
  for (const op of api.operations) {
    for (const requirement of op.security) {
      const names = Object.keys(requirement);
      const usesOAuth = oauth !== undefined && names.includes(api.oauth?.scheme ?? '');
      const headers = names
        .filter((name) => !(usesOAuth && name === api.oauth?.scheme))
        .map((name) => {
          const handle = api.auth[name];
          return handle === undefined ? undefined : schemeHeader(deref(api.document, schemes[name]), handle);
        });
      if (headers.every((h): h is Header => h !== undefined)) {
        byOperation.set(op.descriptor.id, { headers, oauth: usesOAuth });
        break;
      }
    }
  }
  const staticOf = (operation: OperationDescriptor): readonly Header[] => byOperation.get(operation.id)?.headers ?? [];
  const withOAuth = (operation: OperationDescriptor): AuthProvider | undefined => (byOperation.get(operation.id)?.oauth ? oauth : undefined);
  return {
    headers: async (operation, signal) => [...staticOf(operation), ...((await withOAuth(operation)?.headers(operation, signal)) ?? [])],
    unauthorized: async (operation, signal) => (await withOAuth(operation)?.unauthorized?.(operation, signal)) ?? false,
    describe: (operation) => [...staticOf(operation), ...(withOAuth(operation)?.describe?.(operation) ?? [])],
  };
}
