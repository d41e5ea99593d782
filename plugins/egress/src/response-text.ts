import type { Scrubber } from './scrub.js';
import type { SendOutcome } from './send.js';

/** Most characters of a response body shown to the model. */
export const BODY_CAP = 64 * 1024;
/** Most characters of one response header shown. */
const HEADER_CAP = 1000;
/** Response headers worth a model's attention; the rest is noise in its context. */
const SHOWN_HEADERS = ['content-type', 'content-length', 'location', 'retry-after', 'www-authenticate', 'link', 'etag', 'last-modified', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|yaml|x-yaml|csv|graphql|problem\+json))/i;

interface BodyRead {
  readonly text: string;
  /** False when the body went on past what was read. */
  readonly complete: boolean;
}

/** Reads at most `limit` bytes of a body as UTF-8 and stops the rest from downloading. */
async function readBody(response: Response, limit: number): Promise<BodyRead> {
  if (!response.body) return { text: '', complete: true };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), complete: true };
    text += decoder.decode(value.subarray(0, limit - bytes), { stream: true });
    bytes += value.byteLength;
    if (bytes >= limit) {
      await reader.cancel();
      return { text, complete: false };
    }
  }
}

/**
 * The body as the model may see it. Scrubbing runs before cutting, on more than is shown: a revealed
 * value that straddles the read limit could survive as an unscrubbed prefix, so when the body was cut,
 * the last `scrub.longest` characters (where such a prefix can sit) are dropped after scrubbing.
 */
async function shownBody(response: Response, scrub: Scrubber): Promise<string> {
  const type = response.headers.get('content-type') ?? '';
  if (type !== '' && !TEXTUAL.test(type)) {
    await response.body?.cancel();
    return `[binary body (${type}) not shown]`;
  }
  const read = await readBody(response, BODY_CAP + 4 * scrub.longest);
  let text = scrub(read.text);
  if (!read.complete) text = text.slice(0, Math.max(0, text.length - scrub.longest));
  if (read.complete && text.length <= BODY_CAP) return text;
  return `${text.slice(0, BODY_CAP)}\n[body cut by http_request after ${BODY_CAP} characters]`;
}

/** The response headers shown, scrubbed. */
export function shownHeaders(response: Response, scrub: Scrubber): [string, string][] {
  return SHOWN_HEADERS.flatMap((name) => {
    const value = response.headers.get(name);
    return value === null ? [] : [[name, scrub(value).slice(0, HEADER_CAP)] as [string, string]];
  });
}

/** `HTTP <status>`, the selected headers, an optional note, a blank line, then the body; all scrubbed. */
export async function responseText(outcome: SendOutcome, scrub: Scrubber): Promise<string> {
  const { response } = outcome;
  const lines = [`HTTP ${response.status}`, ...shownHeaders(response, scrub).map(([name, value]) => `${name}: ${value}`)];
  if (outcome.redirects > 0) lines.push(`[followed ${outcome.redirects} same-origin redirect${outcome.redirects === 1 ? '' : 's'}]`);
  if (outcome.note) lines.push(`[${scrub(outcome.note)}]`);
  return `${lines.join('\n')}\n\n${await shownBody(response, scrub)}`;
}
