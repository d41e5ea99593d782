/**
 * The headers every HTTP answer of the daemon carries (docs/frontends.md): a Content-Security-Policy that
 * lets the page run only its own scripts and talk only to the daemon's WebSocket, and no caching unless
 * the caller says so (hashed assets).
 */
export function securityHeaders(webSocketOrigin: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(webSocketOrigin),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** The web console's policy: `webSocketOrigin` is `ws://127.0.0.1:PORT` (or `wss://…` under TLS). */
export function contentSecurityPolicy(webSocketOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${webSocketOrigin}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
