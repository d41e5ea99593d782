/** A value revealed for one request, and the class it is redacted as. */
export interface RevealedValue {
  readonly value: string;
  readonly class: string;
}

/** Partial base64 runs shorter than this are too likely to occur by chance to be cut out of a response. */
const MIN_CORE = 8;

function base64Variants(bytes: Buffer): string[] {
  const standard = bytes.toString('base64');
  const url = bytes.toString('base64url');
  return [standard, standard.replace(/=+$/, ''), url];
}

/**
 * The run of base64 characters that encodes only `value`'s bytes when `offset` (0–2) bytes of other data
 * come before it, e.g. the password inside base64("user:password"). Characters that also carry bits of
 * the neighbours are left out.
 */
function base64Core(value: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), value]).toString('base64');
  const first = Math.ceil((offset * 8) / 6);
  const last = Math.floor(((offset + value.length) * 8) / 6);
  return encoded.slice(first, last);
}

/**
 * Every spelling of a value an echo server or error message may hand back: raw, JSON-escaped, URL and
 * form encoded (both hex cases), base64 (standard, unpadded, URL-safe, and at each byte alignment), hex.
 */
export function encodedForms(value: string): string[] {
  if (value.length === 0) return [];
  const bytes = Buffer.from(value, 'utf8');
  const uri = encodeURIComponent(value);
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    new URLSearchParams([['', value]]).toString().slice(1),
    ...base64Variants(bytes),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ];
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    if (core.length >= MIN_CORE) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(forms)].filter((form) => form.length > 0);
}

/** Replaces every spelling of every revealed value in text with `[REDACTED <class>]`. */
export interface Scrubber {
  (text: string): string;
  /** The longest spelling, in characters: how much of a cut-off tail may hold part of one. */
  readonly longest: number;
}

/** A scrubber for the values of one request; longer spellings go first so a shorter one never splits them. */
export function createScrubber(revealed: readonly RevealedValue[]): Scrubber {
  const pairs = revealed
    .flatMap((item) => encodedForms(item.value).map((form) => ({ form, marker: `[REDACTED ${item.class}]` })))
    .sort((a, b) => b.form.length - a.form.length);
  const scrub = (text: string): string => pairs.reduce((out, { form, marker }) => out.split(form).join(marker), text);
  return Object.assign(scrub, { longest: pairs[0]?.form.length ?? 0 });
}
