import type Anthropic from '@anthropic-ai/sdk';
import { isEnvelopeError, type GuardedFetch } from '@nodwyn/plugin-api';

/** The SDK's key when none may be sent: it stops the SDK from looking for one; the header is removed below. */
const NO_KEY = 'none';

/** The SDK, loaded on the first request: a run on another provider never pays for parsing it. */
export type AnthropicSdk = typeof import('@anthropic-ai/sdk');
let sdk: Promise<AnthropicSdk> | undefined;
const loadSdk = (): Promise<AnthropicSdk> => (sdk ??= import('@anthropic-ai/sdk'));

/** A client for one attempt, and the failure the guarded fetch raised, if any. */
export interface AttemptClient {
  readonly client: Anthropic;
  /** The SDK's error classes, for telling its failures apart. */
  readonly sdk: AnthropicSdk;
  /** The envelope error the guarded fetch threw (an egress denial, say), which the SDK wraps as a connection error. */
  guardFailure(): unknown;
}

/**
 * An SDK client for one attempt. It sends through the kernel's guarded fetch, never retries (the transport
 * runtime does), logs nothing and records no telemetry (prompts stay out of both). An explicit key keeps the
 * SDK from reading ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or credential profiles by itself: which key goes
 * to which host is decided in `apiKeyFor`. The auth headers are set last, over ANTHROPIC_CUSTOM_HEADERS
 * (which the SDK reads for every host): `authorization` carries this key or is removed, `x-api-key` is removed.
 */
export async function attemptClient(baseUrl: URL, apiKey: string | undefined, fetch: GuardedFetch): Promise<AttemptClient> {
  let failure: unknown;
  const recording: GuardedFetch = async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if (isEnvelopeError(error)) failure = error;
      throw error;
    }
  };
  const loaded = await loadSdk();
  const client = new loaded.Anthropic({
    baseURL: baseUrl.href.replace(/\/+$/, ''),
    apiKey: apiKey ?? NO_KEY,
    fetch: recording,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
    defaultHeaders: { 'x-api-key': null, authorization: apiKey === undefined ? null : `Bearer ${apiKey}` },
  });
  return { client, sdk: loaded, guardFailure: () => failure };
}
