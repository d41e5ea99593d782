/** What a provider's error body says, whichever dialect it is written in. */
export interface ProviderErrorInfo {
  /** Anthropic `error.type`, OpenAI `error.type`, llama.cpp `error.type`. */
  readonly type?: string;
  /** OpenAI `error.code` (`context_length_exceeded`, `insufficient_quota`, `invalid_api_key`, …). */
  readonly code?: string;
  readonly message?: string;
}

/** Longest server message an envelope repeats. */
export const SERVER_MESSAGE_MAX = 200;

/**
 * Reads the error bodies the providers document: Anthropic `{"type":"error","error":{"type","message"}}`,
 * OpenAI `{"error":{"message","type","param","code"}}` (also what llama.cpp, LM Studio and Ollama's
 * OpenAI endpoint send), Ollama's native `{"error":"…"}`, vLLM's older top-level
 * `{"object":"error","message","type","code"}`, FastAPI's `{"detail":"…"}`, or plain text.
 */
export function providerErrorInfo(body: unknown): ProviderErrorInfo {
  if (typeof body === 'string') return body.trim() === '' ? {} : { message: body };
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const nested = record.error;
  if (typeof nested === 'string') return { message: nested };
  const source = typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>) : record;
  const type = text(source.type);
  return compact({
    type: type === 'error' ? undefined : type,
    code: text(source.code),
    message: text(source.message) ?? text(record.detail),
  });
}

const CONTEXT_CODES = new Set(['context_length_exceeded', 'exceed_context_size_error', 'context_window_exceeded']);

// Anthropic "prompt is too long: 210000 tokens > 200000 maximum"; OpenAI and vLLM "This model's maximum
// context length is 4096 tokens"; llama.cpp "the request exceeds the available context size"; Ollama
// "prompt too long; exceeded max context length"; LM Studio "… is greater than the context length".
const CONTEXT_MESSAGE =
  /prompt is too long|prompt too long|maximum context length|context[ _]length[ _]exceeded|(?:exceeds?|exceeded|greater than|longer than) (?:the )?(?:model's )?(?:available |maximum |max )?context (?:size|length|window)/i;

/** Whether the error says the conversation does not fit the model's context window. */
export function isContextTooLong(info: ProviderErrorInfo): boolean {
  if (info.code !== undefined && CONTEXT_CODES.has(info.code)) return true;
  if (info.type !== undefined && CONTEXT_CODES.has(info.type)) return true;
  return info.message !== undefined && CONTEXT_MESSAGE.test(info.message);
}

/** `" (type / code: message)"`, scrubbed and cut, to append to a remediation; '' when the body said nothing. */
export function describeProviderError(info: ProviderErrorInfo): string {
  const label = [info.type, info.code].filter((part) => part !== undefined).join(' / ');
  const message = info.message === undefined ? '' : scrubServerText(info.message);
  if (label === '' && message === '') return '';
  return ` (${label}${label !== '' && message !== '' ? ': ' : ''}${message})`;
}

const CREDENTIALS: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, '$1 [REDACTED]'],
  [/\bsk-[A-Za-z0-9_*-]{4,}/g, 'sk-[REDACTED]'],
  [/\b(x-api-key|api[_-]?key|access[_-]?token|key)(\s*[:=]\s*)["']?[^\s"',;&}]+/gi, '$1$2[REDACTED]'],
];

/**
 * Server text made fit for an envelope: whitespace folded, anything that looks like a key (`sk-…`,
 * a Bearer or Basic value, `api_key=…`) replaced, cut to `max` characters. Servers do echo keys (OpenAI's
 * "Incorrect API key provided: sk-proj-…"), and an envelope goes to the log, the screen and the model.
 */
export function scrubServerText(raw: string, max: number = SERVER_MESSAGE_MAX): string {
  let out = raw.replace(/\s+/g, ' ').trim();
  for (const [pattern, replacement] of CREDENTIALS) out = out.replace(pattern, replacement);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  return typeof value === 'number' ? String(value) : undefined;
}

function compact(info: { type: string | undefined; code: string | undefined; message: string | undefined }): ProviderErrorInfo {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined));
}
