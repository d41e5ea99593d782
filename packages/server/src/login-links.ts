import { createHash, randomBytes } from 'node:crypto';

/** How long a login link can be used: long enough to open a browser, too short to be worth stealing. */
export const LOGIN_LINK_TTL_MS = 60_000;
/** Links not yet used that are kept at once; issuing another drops the oldest. */
const MAX_OPEN_LINKS = 64;

/** A one-time link that logs a browser into the web console. */
export interface LoginLink {
  /** `http(s)://HOST:PORT/login?t=…` */
  readonly url: string;
  readonly expiresInMs: number;
}

/**
 * The web console's one-time login links (docs/frontends.md): each token is spent on its first use and
 * lives `LOGIN_LINK_TTL_MS`. Only digests of the tokens are kept, so a heap dump holds no usable link.
 */
export class LoginLinks {
  private readonly open = new Map<string, number>();

  /** `origin` gives the daemon's own (`http://127.0.0.1:PORT`, known once it listens); `now` is the clock (tests move it). */
  constructor(
    private readonly origin: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A fresh link. */
  issue(): LoginLink {
    this.forgetExpired();
    while (this.open.size >= MAX_OPEN_LINKS) this.open.delete(this.open.keys().next().value!);
    const token = randomBytes(32).toString('base64url');
    this.open.set(digest(token), this.now() + LOGIN_LINK_TTL_MS);
    return { url: `${this.origin()}/login?t=${token}`, expiresInMs: LOGIN_LINK_TTL_MS };
  }

  /** Spends `token`: true once for a link issued less than the TTL ago; false for a spent, expired or unknown one. */
  spend(token: string): boolean {
    const key = digest(token);
    const expires = this.open.get(key);
    this.open.delete(key);
    return expires !== undefined && this.now() < expires;
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [key, expires] of this.open) if (expires <= now) this.open.delete(key);
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
