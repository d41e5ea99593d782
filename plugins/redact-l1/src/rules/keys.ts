import { isPlaceholder } from '../allow-list.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { startsToken, stickyAt } from '../chars.js';
import { tokenRules } from './token-rule.js';

/** RSA, EC, DSA, OPENSSH, PKCS#8 (plain and encrypted) and PGP private keys; never PUBLIC or CERTIFICATE. */
const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/y;
/** Characters of a key body, header lines (`Proc-Type: 4,ENCRYPTED`) and escaped newlines (`\n`). */
const PEM_BODY = /[A-Za-z0-9+/=:,\s\\-]*/y;
const PUTTY_BEGIN = /PuTTY-User-Key-File-\d+: /y;
const PUTTY_MAC = /Private-(?:MAC|Hash): [0-9a-fA-F]+/g;
/** A Google service-account JSON puts its key in `"private_key": "-----BEGIN PRIVATE KEY-----\n…"`. */
const SERVICE_ACCOUNT_FIELD = /"private_key\\?"\s*:\s*\\?"$/;
/** How far to look for the end of a block; real keys are a few kilobytes. */
const MAX_BLOCK = 64 * 1024;

/**
 * Where a block without its end marker stops: the end of its body characters or the first blank line.
 * A key cut off mid-body (a truncated tool output) is still redacted to its last character.
 */
function bodyEnd(text: string, from: number): number {
  const body = stickyAt(PEM_BODY, text, from);
  const end = Math.min(from + (body?.[0].length ?? 0), from + MAX_BLOCK);
  const blank = text.slice(from, end).search(/\n[ \t]*\n|(?:\\n){2}/);
  return blank >= 0 ? from + blank : end;
}

/** A documentation stand-in: an elided body (`...`) or less key material than any real key holds. */
function placeholderBody(body: string): boolean {
  return /\.\.\.|…/.test(body) || (body.match(/[A-Za-z0-9+/=]/g)?.length ?? 0) < 64;
}

function pemKey(scan: Scan, start: number): number | void {
  const begin = stickyAt(PEM_BEGIN, scan.text, start);
  if (!begin) return;
  const headerEnd = start + begin[0].length;
  const marker = `-----END ${begin[1]}-----`;
  const at = scan.text.indexOf(marker, headerEnd);
  const end = at >= 0 && at - headerEnd <= MAX_BLOCK ? at + marker.length : bodyEnd(scan.text, headerEnd);
  if (placeholderBody(scan.text.slice(headerEnd, at >= 0 && at < end ? at : end))) return;
  const inServiceAccount = SERVICE_ACCOUNT_FIELD.test(scan.text.slice(Math.max(0, start - 40), start));
  scan.add({ class: inServiceAccount ? 'gcp-service-account' : 'private-key', start, end, priority: Priority.vendor });
  return end;
}

/** A PuTTY `.ppk` file: from its first line through `Private-MAC:` (or its body when that is cut off). */
function puttyKey(scan: Scan, start: number): number | void {
  if (!stickyAt(PUTTY_BEGIN, scan.text, start)) return;
  PUTTY_MAC.lastIndex = start;
  const mac = PUTTY_MAC.exec(scan.text);
  const end = mac && mac.index - start <= MAX_BLOCK ? mac.index + mac[0].length : bodyEnd(scan.text, start + 'PuTTY-User-Key-File-'.length);
  scan.add({ class: 'private-key', start, end, priority: Priority.vendor });
  return end;
}

const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/y;

function jwt(scan: Scan, start: number): void {
  const match = stickyAt(JWT, scan.text, start);
  if (!match || !startsToken(scan.text, start) || isPlaceholder(match[0])) return;
  scan.add({ class: 'jwt', start, end: start + match[0].length, priority: Priority.vendor });
}

/** Private keys in every common container, and JSON Web Tokens. */
export const keyRules: Rule[] = [
  { anchors: ['-----BEGIN '], handle: pemKey },
  { anchors: ['PuTTY-User-Key-File-'], handle: puttyKey },
  { anchors: ['eyJ'], handle: jwt },
  ...tokenRules([{ class: 'private-key', anchors: ['AGE-SECRET-KEY-1'], pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/y }]),
];
