import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash, type Route } from './route.js';

describe('parseRoute', () => {
  it('reads every page and round-trips through routeHash', () => {
    const routes: Route[] = [
      { page: 'sessions' },
      { page: 'session', sessionId: 's-1' },
      { page: 'log', sessionId: 'a/b c' },
      { page: 'capabilities' },
      { page: 'capabilities', workspace: '/home/p/repo' },
      { page: 'secrets' },
      { page: 'bindings' },
      { page: 'settings' },
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
  });

  it('falls back to the sessions list for an unknown page, a missing id or bad escapes', () => {
    expect(parseRoute('')).toEqual({ page: 'sessions' });
    expect(parseRoute('#/nope')).toEqual({ page: 'sessions' });
    expect(parseRoute('#/session/')).toEqual({ page: 'sessions' });
    expect(parseRoute('#/session/%E0%A4%A')).toEqual({ page: 'sessions' });
  });
});
