/** A page of the console, from the location's hash. */
export type Route =
  | { readonly page: 'sessions' }
  | { readonly page: 'session'; readonly sessionId: string }
  | { readonly page: 'log'; readonly sessionId: string }
  | { readonly page: 'capabilities'; readonly workspace?: string }
  | { readonly page: 'secrets' }
  | { readonly page: 'bindings' }
  | { readonly page: 'settings' };

/** The route a hash names (`#/session/ID`); anything unknown is the sessions list. */
export function parseRoute(hash: string): Route {
  const [page = '', rawArg, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const arg = rawArg === undefined || rawArg === '' ? undefined : safeDecode([rawArg, ...rest].join('/'));
  switch (page) {
    case 'session':
      return arg ? { page: 'session', sessionId: arg } : { page: 'sessions' };
    case 'log':
      return arg ? { page: 'log', sessionId: arg } : { page: 'sessions' };
    case 'capabilities':
      return arg ? { page: 'capabilities', workspace: arg } : { page: 'capabilities' };
    case 'secrets':
    case 'bindings':
    case 'settings':
      return { page };
    default:
      return { page: 'sessions' };
  }
}

/** The hash of a route: the inverse of `parseRoute`. */
export function routeHash(route: Route): string {
  switch (route.page) {
    case 'session':
    case 'log':
      return `#/${route.page}/${encodeURIComponent(route.sessionId)}`;
    case 'capabilities':
      return route.workspace === undefined ? '#/capabilities' : `#/capabilities/${encodeURIComponent(route.workspace)}`;
    default:
      return `#/${route.page}`;
  }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
