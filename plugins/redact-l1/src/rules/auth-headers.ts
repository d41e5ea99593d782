import { DOCUMENTED_EXAMPLES, isPlaceholder } from '../allow-list.js';
import { bestClass, decodeBase64, isPrintable } from '../base64.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { isBlank, isSpace, scanForward, stickyAt } from '../chars.js';
import { secretLike } from '../value-checks.js';

const BASE64_VALUE = /[A-Za-z0-9+/]{8,}={0,2}(?![A-Za-z0-9+/=])/y;
const BEARER_VALUE = /[A-Za-z0-9._~+/-]{16,}=*(?![A-Za-z0-9._~+/=-])/y;
/** Also as an escaped string inside another JSON document (`\"auth\": \"…\"`). */
const DOCKER_AUTH = /\\?"auth\\?"\s*:\s*\\?"([A-Za-z0-9+/]{8,}={0,2})\\?"/dy;
/** `user:password`; a `::` is a path (`perldoc -u Some::Module`), not a pair. */
const CURL_USER = /["']?([^\s"':]{1,128}):([^\s"':][^\s"']{0,255})/dy;
/** Twilio's account SID, the user name of its basic auth. */
const TWILIO_SID = /^AC[0-9a-f]{32}$/;

/** True when `password` stands in for nothing: a placeholder, the user name again, or a number. */
function standIn(user: string, password: string): boolean {
  return password.length === 0 || isPlaceholder(password) || password === user || /^\d{1,5}$/.test(password);
}

/** The class of a `user:password` pair: what the password is, else basic auth (Twilio by its SID). */
function pairClass(scan: Scan, user: string, password: string): string | undefined {
  if (standIn(user, password)) return undefined;
  if (TWILIO_SID.test(user)) return 'twilio';
  return bestClass(scan.inner(password)) ?? 'basic-auth';
}

/** Base64 of `user:password` at `[from, to)`: decoded, judged, and redacted whole. */
function encodedPair(scan: Scan, from: number, to: number): void {
  const value = scan.text.slice(from, to);
  const decoded = decodeBase64(value);
  if (decoded === undefined || DOCUMENTED_EXAMPLES.has(value) || !isPrintable(decoded)) return;
  const colon = decoded.indexOf(':');
  if (colon < 0) return;
  const password = decoded.slice(colon + 1);
  const cls = pairClass(scan, decoded.slice(0, colon), password);
  if (cls) scan.add({ class: cls, start: from, end: to, priority: Priority.structural, decoded: password });
}

function basic(scan: Scan, _start: number, end: number): void {
  if (scan.nested) return;
  const at = scanForward(scan.text, end, isBlank, 8);
  const match = stickyAt(BASE64_VALUE, scan.text, at);
  if (match) encodedPair(scan, at, at + match[0].length);
}

/** Docker's `config.json`: `"auths": {"registry": {"auth": "<base64 user:password>"}}`. */
function dockerAuth(scan: Scan, start: number): void {
  if (scan.nested) return;
  const match = stickyAt(DOCKER_AUTH, scan.text, start);
  if (match) encodedPair(scan, ...match.indices![1]!);
}

function bearer(scan: Scan, _start: number, end: number): void {
  const at = scanForward(scan.text, end, isBlank, 8);
  const match = stickyAt(BEARER_VALUE, scan.text, at);
  if (match && secretLike(match[0])) scan.add({ class: 'generic-secret', start: at, end: at + match[0].length, priority: Priority.structural });
}

/** `curl -u user:password` and `--user user:password`. */
function curlUser(scan: Scan, start: number, end: number): void {
  if (scan.text[start + 1] === 'u' && start > 0 && !isSpace(scan.text.charCodeAt(start - 1))) return;
  const at = scanForward(scan.text, end, isBlank, 8);
  const match = stickyAt(CURL_USER, scan.text, at);
  if (!match) return;
  const cls = pairClass(scan, match[1]!, match[2]!);
  const [from, to] = match.indices![2]!;
  if (cls) scan.add({ class: cls, start: from, end: to, priority: Priority.structural });
}

/** Credentials in HTTP authorization headers, Docker auth entries and curl's `-u`. */
export const authHeaderRules: Rule[] = [
  { keywords: ['basic '], handle: basic },
  { anchors: ['"auth":', '\\"auth\\":', '"auth" :'], handle: dockerAuth },
  { keywords: ['bearer '], handle: bearer },
  { anchors: ['-u ', '--user '], handle: curlUser },
];
