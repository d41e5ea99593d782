import { assignmentAt, type Assignment } from '../assignment.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { isWordLike, passwordLike, secretLike } from '../value-checks.js';
import { awsSecretShape } from './cloud.js';

/** SQL's `IDENTIFIED BY 'secret'` (MySQL, Oracle) names no password key, so it is a keyword of its own. */
const PASSWORD_ANCHORS = ['passw', 'pwd', 'passphrase', 'identified by'];
/** Two-word keys in every spelling: `api_key`, `api-key`, `apikey` (`apiKey`: the prefilter ignores case). */
const SECRET_ANCHORS = [
  'secret', 'token', 'credential',
  ...['api', 'access', 'private', 'app', 'application', 'signing', 'encryption', 'master', 'auth'].flatMap((w) => [`${w}_key`, `${w}-key`, `${w}key`]),
];

/** What follows the keyword in keys that name or describe a secret instead of holding one. */
const DESCRIBING = [
  'name', 'type', 'url', 'uri', 'endpoint', 'path', 'file', 'dir', 'field', 'length', 'len', 'count', 'limit', 'max', 'min',
  'policy', 'hint', 'label', 'prompt', 'placeholder', 'ref', 'arn', 'version', 'expiry', 'expires', 'expiration', 'ttl',
  'header', 'param', 'prefix', 'usage', 'hash', 'env', 'var', 'id', 'size', 'format', 'mode', 'enabled', 'required',
  'rotation', 'store', 'provider', 'manager', 'location', 'lifetime', 'duration', 'timeout', 'strength', 'reset',
];
const DESCRIBING_SUFFIX = new RegExp(`(?:^|[-_.])(?:${DESCRIBING.join('|')})s?$`, 'i');
const DESCRIBING_CAMEL = new RegExp(`[a-z0-9](?:${DESCRIBING.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('|')})s?$`);
/** Opaque cursors that look random but open nothing. */
const CURSOR_KEY = /(?:next|page|pagination|continuation|sync|resume|cancellation|cursor)[-_]?token/i;
const DATABASE_CONTEXT = /jdbc:|(?:mongodb|postgres|postgresql|mysql|mariadb|redis|sqlserver|oracle)[:+]/i;

/** The class of a password by where it sits: a connection string, a URL query, or an assignment. */
function passwordClass(scan: Scan, found: Assignment): string {
  if (found.pair === ';') return 'connection-string';
  if (found.pair === undefined) return 'generic-password';
  const before = scan.text.slice(Math.max(0, found.keyStart - 200), found.keyStart);
  return DATABASE_CONTEXT.test(before) ? 'connection-string' : 'url-password';
}

/** The class a key's name gives a random value: vendors whose secrets have no prefix of their own. */
function secretClass(key: string, value: string, anchor: string): { class: string; priority: number } {
  const k = key.toLowerCase().replace(/[-_.]/g, '');
  if (anchor === '_authtoken') return { class: 'npm-token', priority: Priority.structural };
  if (k.includes('aws') && k.includes('secret') && awsSecretShape(value)) return { class: 'aws-secret-key', priority: Priority.structural };
  if (k.includes('secretaccesskey') && awsSecretShape(value)) return { class: 'aws-secret-key', priority: Priority.structural };
  if (k.includes('twilio')) return { class: 'twilio', priority: Priority.structural };
  if (k.includes('datadog') || /^dd(?:api|app)/.test(k)) return { class: 'datadog-key', priority: Priority.structural };
  return { class: 'generic-secret', priority: Priority.generic };
}

/**
 * False for keys that are not keys: a segment of a `:` path (`arn:aws:secretsmanager:…`), a URL's user
 * name (`https://x-access-token:…@`, the URL rule's business), a class name inside this layer's own
 * `[REDACTED generic-password]` placeholder, or a run of random characters that happens to spell `pwd`.
 */
function standsAlone(text: string, found: Assignment): boolean {
  if (!isWordLike(found.key.replace(/^-+/, ''))) return false;
  const before = text[found.keyStart - 1];
  if (before === ':' && text[found.valueStart - 1] !== '=' && text[found.valueStart - 2] !== '=') return false;
  if (before === '/' && text[found.keyStart - 2] === '/') return false;
  return !text.startsWith('[REDACTED ', found.keyStart - 10);
}

function keywordRule(keywords: readonly string[], password: boolean): Rule {
  return {
    keywords,
    handle(scan, start, end) {
      const found = assignmentAt(scan.text, start, end);
      if (!found || !standsAlone(scan.text, found)) return;
      const rest = scan.text.slice(end, found.keyStart + found.key.length);
      if (DESCRIBING_SUFFIX.test(rest) || DESCRIBING_CAMEL.test(rest) || CURSOR_KEY.test(found.key)) return;
      const value = scan.text.slice(found.valueStart, found.valueEnd);
      // In prose the value is judged without the sentence's punctuation (`… is optional.`), but
      // redacted with it, since it may as well be the secret's last character.
      const judged = found.prose ? value.replace(/[.,;:!?]+$/, '') : value;
      const anchor = scan.text.slice(start, end).toLowerCase();
      if (password) {
        if (!passwordLike(judged, found.quoted || found.pair === ';', found.pair === ';')) return;
        scan.add({ class: passwordClass(scan, found), start: found.valueStart, end: found.valueEnd, priority: found.pair ? Priority.structural : Priority.generic });
        return;
      }
      if (!secretLike(judged)) return;
      scan.add({ ...secretClass(found.key, judged, anchor), start: found.valueStart, end: found.valueEnd });
    },
  };
}

/** Keyword assignments (`password=`, `"api_key": …`, `client_secret:`) judged by their value's shape. */
export const keywordRules: Rule[] = [
  keywordRule(PASSWORD_ANCHORS, true),
  keywordRule(SECRET_ANCHORS, false),
  // npm's `.npmrc`: `//registry.npmjs.org/:_authToken=…`; older tokens are bare UUIDs.
  keywordRule(['_authtoken'], false),
];
