import { isBlank, isKeyChar, isSpace, scanBack, scanForward } from './chars.js';

/** A `key <separator> value` found around a keyword, in any of the syntaxes secrets are written in. */
export interface Assignment {
  /** The whole key as written (`DB_PASSWORD`, `clientSecret`, `--api-key`). */
  readonly key: string;
  readonly keyStart: number;
  readonly valueStart: number;
  readonly valueEnd: number;
  readonly quoted: boolean;
  /** Set when the key is one pair of a `;` list (a connection string) or of a `?`/`&` query. */
  readonly pair?: ';' | '&' | '?';
  /** Set for prose (`my password is …`), where a sentence's punctuation may follow the value. */
  readonly prose?: boolean;
}

const MAX_KEY = 48;
const MAX_VALUE = 1024;
const BACKSLASH = 92;
const QUOTES = new Set([34, 39, 96]); // " ' `
/** Where an unquoted value ends: whitespace, quotes, a backslash (an escaped quote), `<` (XML). */
const UNQUOTED_STOP = new Set([34, 39, 96, 92, 60]);
/** The next `name=` of a query or connection string glued to a value, or an HTML entity (`&quot;`) after it. */
const NEXT_PAIR = /[;&][A-Za-z_][\w .-]{0,40}=|&(?:quot|apos|lt|gt|amp|#\d{2,3});/;
const ESCAPE_LETTER = /[nrtbf]/;

/** Steps over what closes a quoted or subscripted key: `"`, `\"`, `'`, `"]` (a `]` only after a quote). */
function skipKeyClose(text: string, at: number): number {
  let p = at;
  if (text.charCodeAt(p) === BACKSLASH && QUOTES.has(text.charCodeAt(p + 1))) p += 2;
  else if (QUOTES.has(text.charCodeAt(p))) p += 1;
  if (p > at && text[p] === ']') p += 1;
  return p;
}

const PROSE_SEPARATOR = /^is[ \t:]/i;

/** Length of the separator at `at` (`=`, `:`, `:=`, `=>`, `==`, prose `is`), 0 when there is none. */
function separatorAt(text: string, at: number, xml: boolean): number {
  const two = text.slice(at, at + 3);
  if (PROSE_SEPARATOR.test(two)) return two[2] === ':' ? 3 : 2;
  // `==` compares only when a blank or a quote follows; `KEY==x` assigns `=x`.
  const comparison = /^===?[ \t"'`]/.exec(text.slice(at, at + 4));
  if (comparison) return comparison[0].length - 1;
  if (two.startsWith(':=') || two.startsWith('=>')) return 2;
  // `Password::new()` is a path, not a separator.
  if (two.startsWith('::')) return 0;
  if (two[0] === '=' || two[0] === ':') return 1;
  return xml && two[0] === '>' ? 1 : 0;
}

/** An HTML entity (`&quot;`, `&#39;`) ends in `;` but separates nothing. */
const ENTITY_BEFORE = /&#?[A-Za-z0-9]{2,8}$/;

function pairBefore(text: string, keyStart: number): Assignment['pair'] {
  const at = scanBack(text, keyStart, isBlank, 8) - 1;
  const c = text[at];
  if (c === ';' && ENTITY_BEFORE.test(text.slice(Math.max(0, at - 10), at))) return undefined;
  return c === ';' || c === '&' || c === '?' ? c : undefined;
}

/**
 * Finds the assignment whose key contains the keyword at `[anchorStart, anchorEnd)`: `.env` lines,
 * JSON (also escaped inside another string), YAML, shell `export`, source code, `--flag value`,
 * `<key>value</key>`, `Key=value;` connection strings, SQL's `PASSWORD 'value'` and prose's `is`.
 */
export function assignmentAt(text: string, anchorStart: number, anchorEnd: number): Assignment | undefined {
  // Most keywords are prose or code (`the token`, `token.refresh()`): the separator check after the
  // key rules them out before anything is sliced.
  const keyEnd = scanForward(text, anchorEnd, isKeyChar, MAX_KEY);
  const afterKey = skipKeyClose(text, keyEnd);
  let p = scanForward(text, afterKey, isBlank, 16);
  let keyStart = scanBack(text, anchorStart, isKeyChar, MAX_KEY);
  // In `…\nDB_PASSWORD=…` the `n` belongs to the escape, not to the key.
  if (keyStart > 0 && text.charCodeAt(keyStart - 1) === BACKSLASH && ESCAPE_LETTER.test(text[keyStart]!)) keyStart++;
  const xml = text.charCodeAt(keyStart - 1) === 60 /* < */ && text[p] === '>';
  const separator = separatorAt(text, p, xml);
  // `--password value`, unless what follows is the next flag (`--password --stdin`).
  const flag = separator === 0 && p > afterKey && text.startsWith('--', keyStart) && text[p] !== '-';
  const quotedAfterBlank = separator === 0 && p > afterKey && QUOTES.has(text.charCodeAt(p));
  if (separator === 0 && !flag && !quotedAfterBlank) return undefined;
  const prose = PROSE_SEPARATOR.test(text.slice(p, p + 3));
  p = scanForward(text, p + separator, isBlank, 16);
  const pair = pairBefore(text, keyStart);
  const value = readValue(text, p, pair === ';');
  // `<password>…</password>` only: `<password>@host` is a template, not an element.
  if (xml && value && !text.startsWith('</', value.valueEnd)) return undefined;
  return value && { key: text.slice(keyStart, keyEnd), keyStart, ...value, ...(pair ? { pair } : {}), ...(prose ? { prose } : {}) };
}

function readValue(text: string, at: number, spaces: boolean): Pick<Assignment, 'valueStart' | 'valueEnd' | 'quoted'> | undefined {
  const c = text.charCodeAt(at);
  if (c === BACKSLASH && QUOTES.has(text.charCodeAt(at + 1))) {
    const close = text.indexOf(text.slice(at, at + 2), at + 2);
    return quotedValue(text, at + 2, close);
  }
  if (QUOTES.has(c)) return quotedValue(text, at + 1, closingQuote(text, at + 1, c));
  let end = at;
  const limit = Math.min(text.length, at + MAX_VALUE);
  while (end < limit) {
    const code = text.charCodeAt(end);
    if (UNQUOTED_STOP.has(code) || code === 10 || code === 13 || (!spaces && isSpace(code)) || (spaces && code === 59)) break;
    end++;
  }
  const raw = text.slice(at, end);
  const glued = raw.search(NEXT_PAIR);
  let cut = Math.min(glued >= 0 ? glued : raw.length, unbalancedCloser(raw));
  // A trailing `.` stays: it is as likely a password's last character as a sentence's end, and
  // redacting one character too many is the safe side.
  while (cut > 0 && ',;)]}'.includes(raw[cut - 1]!)) cut--;
  while (cut > 0 && isSpace(raw.charCodeAt(cut - 1))) cut--;
  return cut > 0 ? { valueStart: at, valueEnd: at + cut, quoted: false } : undefined;
}

/** Index of the first `)`, `]` or `}` that closes nothing opened in `raw` (Markdown's `)](…`), else its length. */
function unbalancedCloser(raw: string): number {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return raw.length;
}

/** Index of the quote that closes a string opened before `from`, skipping `\"`-style escapes. */
function closingQuote(text: string, from: number, quote: number): number {
  const limit = Math.min(text.length, from + MAX_VALUE);
  for (let i = from; i < limit; i++) {
    const code = text.charCodeAt(i);
    if (code === quote) return i;
    if (code === 10) return -1;
    if (code === BACKSLASH) i++;
  }
  return -1;
}

function quotedValue(text: string, start: number, close: number): Pick<Assignment, 'valueStart' | 'valueEnd' | 'quoted'> | undefined {
  if (close <= start || close - start > MAX_VALUE || text.slice(start, close).includes('\n')) return undefined;
  return { valueStart: start, valueEnd: close, quoted: true };
}
