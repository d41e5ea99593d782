import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The web console's session cookie. */
export const SESSION_COOKIE = 'nodwyn_session';
/** Browser sessions kept at once; a new login past this drops the oldest. */
const MAX_SESSIONS = 256;

/**
 * The browsers logged into the web console: a random cookie value per login, kept (as a digest) until
 * logout or the daemon stops. The cookie is HttpOnly and SameSite=Strict, so page scripts cannot read it
 * and other sites cannot send it (docs/frontends.md).
 */
export class CookieSessions {
  private readonly live = new Set<string>();

  /** `secure` adds `Secure` to the cookie (the daemon serves https). */
  constructor(private readonly secure: boolean) {}

  /** Starts a session; returns the `Set-Cookie` header value that hands it to the browser. */
  create(): string {
    while (this.live.size >= MAX_SESSIONS) this.live.delete(this.live.values().next().value!);
    const value = randomBytes(32).toString('base64url');
    this.live.add(digest(value));
    return this.cookie(value);
  }

  /** Whether the request carries the cookie of a live session. */
  has(request: IncomingMessage): boolean {
    const value = cookieOf(request);
    return value !== undefined && this.live.has(digest(value));
  }

  /** Forgets the request's session; returns the `Set-Cookie` header value that clears the cookie. */
  forget(request: IncomingMessage): string {
    const value = cookieOf(request);
    if (value !== undefined) this.live.delete(digest(value));
    return `${this.cookie('')}; Max-Age=0`;
  }

  private cookie(value: string): string {
    return `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/${this.secure ? '; Secure' : ''}`;
  }
}

/** The session cookie's value in a request, if it has one. */
function cookieOf(request: IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === SESSION_COOKIE && rest.length > 0) return rest.join('=');
  }
  return undefined;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
