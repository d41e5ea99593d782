import type { TransportCode } from './codes.js';

/** What a remediation may name. */
export interface RemediationFacts {
  readonly provider: string;
  readonly status: number;
  /** `" (type / code: message)"` from the server, scrubbed; may be ''. */
  readonly detail: string;
  readonly retryAfterMs?: number;
}

// Only the providers' own hosts accept a key from the environment (the contract of the provider plugins).
const KEY_VARIABLES = new Map([
  ['anthropic', 'ANTHROPIC_API_KEY'],
  ['openai', 'OPENAI_API_KEY'],
]);

const SHORTEN = 'start a new session, fork this one from an earlier point, or lower budgets.window_tokens in config.toml so the window nodwyn sends is smaller';

function wait(facts: RemediationFacts): string {
  if (facts.retryAfterMs === undefined) return 'Wait a little, then send the message again';
  return `Wait ${Math.max(1, Math.ceil(facts.retryAfterMs / 1000))} s (the server's Retry-After), then send the message again`;
}

/** The codes an HTTP error answer maps to. */
export type HttpFailureCode = Extract<
  TransportCode,
  | 'CONTEXT_TOO_LONG'
  | 'AUTH_INVALID'
  | 'INSUFFICIENT_QUOTA'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'REQUEST_TIMEOUT'
  | 'REQUEST_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'OVERLOADED'
  | 'UPSTREAM_ERROR'
  | 'HTTP_BAD_REQUEST'
  | 'UNEXPECTED_STATUS'
>;

/** The text a model and a person can act on, per HTTP failure code. */
export const HTTP_REMEDIATION: Readonly<Record<HttpFailureCode, (facts: RemediationFacts) => string>> = {
  CONTEXT_TOO_LONG: (f) => `The conversation is longer than the model's context window${f.detail}. To go on, ${SHORTEN}.`,
  AUTH_INVALID: (f) => {
    const variable = KEY_VARIABLES.get(f.provider);
    const fromEnv = variable === undefined ? '' : `, or fix ${variable} in the environment when the key comes from there`;
    return `The API key for ${f.provider} was refused${f.detail}. Check it: \`nodwyn secret list\` shows the keychain handles, and \`nodwyn secret add NAME --class control-plane --force\` replaces a wrong value${fromEnv}. Then send the message again.`;
  },
  INSUFFICIENT_QUOTA: (f) => `The ${f.provider} account has no quota or credit left${f.detail}. Check the plan and billing with ${f.provider}, or use another key; retrying does not help until then.`,
  FORBIDDEN: (f) => `The API key for ${f.provider} may not use this model or endpoint${f.detail}. Use a key with access to it, or choose another model with --model.`,
  NOT_FOUND: (f) => `${f.provider} does not know this model or endpoint${f.detail}. Check --model (\`nodwyn models\` lists the known ones) and --base-url.`,
  REQUEST_TIMEOUT: (f) => `${f.provider} timed out waiting for the request (HTTP 408)${f.detail}. ${wait(f)}; if it keeps happening, check the network.`,
  REQUEST_TOO_LARGE: (f) => `The request is larger than ${f.provider} accepts${f.detail}. To go on, ${SHORTEN}.`,
  RATE_LIMITED: (f) => `${f.provider} is rate limiting requests${f.detail}. ${wait(f)}.`,
  OVERLOADED: (f) => `${f.provider} is overloaded${f.detail}. ${wait(f)}, or choose another model with --model.`,
  UPSTREAM_ERROR: (f) =>
    `${f.provider} failed on its side${f.status >= 500 ? ` (HTTP ${f.status})` : ''}${f.detail}. ${wait(f)}; if it keeps failing, check the provider's status page.`,
  HTTP_BAD_REQUEST: (f) =>
    `${f.provider} rejected the request (HTTP ${f.status})${f.detail}. Check the provider options (--model, max_tokens, thinking_budget) against what the model supports; if they are right, report it as a bug of the provider plugin with the session id.`,
  UNEXPECTED_STATUS: (f) =>
    `${f.provider} answered with HTTP ${f.status}, which is not an API answer${f.detail}. Check --base-url: it must point at the API itself, not at a page or a proxy that redirects.`,
};
