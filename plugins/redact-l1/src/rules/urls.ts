import { isPlaceholder } from '../allow-list.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { scanBack, stickyAt } from '../chars.js';

/**
 * `scheme://user:password@host`. The password may hold `@` (the last one before the host wins) and
 * percent escapes; the user may be empty (`redis://:password@host`).
 */
const USERINFO = /:\/\/([^\s:@/?#"'<>\\]{0,128}):([^\s/?#"'<>\\]{1,256})@(?=[\w[\].-])/dy;
/** A Sentry DSN: `https://<public key>[:<secret key>]@o1.ingest.sentry.io/<project>`. */
const SENTRY_DSN = /:\/\/([0-9a-f]{32}(?::[0-9a-f]{32})?)@[\w.-]+(?::\d+)?\/(?:[\w-]+\/)*\d+/dy;
const DATABASE_SCHEMES = new Set([
  'mongodb', 'mongodb+srv', 'postgres', 'postgresql', 'mysql', 'mariadb', 'redis', 'rediss', 'amqp', 'amqps', 'mssql',
  'sqlserver', 'oracle', 'cockroachdb', 'clickhouse', 'couchdb', 'neo4j', 'neo4j+s', 'bolt', 'cassandra', 'memcached', 'ldap', 'ldaps',
]);

const isSchemeChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;

/**
 * True when a URL password is a stand-in: a placeholder, the user name again, a port-like number, or
 * shorter than 4 characters (documentation's `abc:xyz@`, `a:b@`).
 */
function placeholderPassword(user: string, password: string): boolean {
  return password.length < 4 || isPlaceholder(password) || password === user || /^\d{1,5}$/.test(password);
}

/**
 * True when an `@` follows in the URL's authority (before `/`, `?`, `#`, a quote or whitespace): only
 * then can it carry credentials. Nearly every URL in a text fails this within a few characters.
 */
function hasUserinfo(text: string, start: number): boolean {
  const limit = Math.min(text.length, start + 3 + 400);
  for (let i = start + 3; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 64) return true; // @
    if (c === 47 || c === 63 || c === 35 || c === 34 || c === 39 || c <= 32 || c === 92 || c === 60 || c === 62) return false;
  }
  return false;
}

function credentials(scan: Scan, start: number): void {
  if (!hasUserinfo(scan.text, start)) return;
  const dsn = stickyAt(SENTRY_DSN, scan.text, start);
  if (dsn) {
    const [from, to] = dsn.indices![1]!;
    scan.add({ class: 'sentry-dsn', start: from, end: to, priority: Priority.vendor });
    return;
  }
  const match = stickyAt(USERINFO, scan.text, start);
  if (!match || placeholderPassword(match[1]!, match[2]!)) return;
  const scheme = scan.text.slice(scanBack(scan.text, start, isSchemeChar, 24), start).toLowerCase();
  const [from, to] = match.indices![2]!;
  const cls = DATABASE_SCHEMES.has(scheme) ? 'connection-string' : 'url-password';
  scan.add({ class: cls, start: from, end: to, priority: Priority.structural });
}

/** Credentials inside URLs: userinfo passwords, database connection URLs, Sentry DSNs. */
export const urlRules: Rule[] = [{ anchors: ['://'], handle: credentials }];
