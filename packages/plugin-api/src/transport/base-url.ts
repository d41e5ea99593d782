import { EnvelopeError } from '../envelope.js';
import { transportEnvelope } from './codes.js';
import { scrubServerText } from './provider-error.js';

/** Loopback hosts, where plain http never leaves the machine. URL has already normalised IPv4 spellings (127.1, 0x7f.0.0.1). */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The URL as an envelope may show it: without user info, query or fragment, where keys tend to hide. */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function invalid(provider: string, received: string, remediation: string): EnvelopeError {
  return new EnvelopeError(
    transportEnvelope('BASE_URL_INVALID', {
      operation: 'provider.create',
      plugin: provider,
      failed_parameter: '--base-url',
      received_value: received,
      expected: 'an http(s) URL such as https://api.example.com/v1',
      remediation,
    }),
  );
}

/**
 * Checks a provider base URL: http(s) only; plain http only to loopback (127.0.0.0/8, ::1, localhost) unless allowInsecureHttp.
 * A bad one is an EnvelopeError VALIDATION_FAILED naming failed_parameter '--base-url'. A URL with a user
 * name or password is refused too: a key belongs in the keychain, where the egress edge controls it.
 */
export function checkBaseUrl(raw: string, options: { provider: string; allowInsecureHttp: boolean }): URL {
  const { provider } = options;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid(provider, scrubServerText(raw, 100), `The base URL for ${provider} is not a URL. Give a full http(s) URL with --base-url or base_url in [provider.${provider}].`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid(provider, shown(url), `The base URL for ${provider} uses ${url.protocol.slice(0, -1)}; only https (or http to a loopback host) is supported.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(provider, shown(url), `The base URL for ${provider} carries a user name or password. Remove them and store the key with \`nodwyn secret add NAME --class control-plane\`, then pass --api-key NAME.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !options.allowInsecureHttp) {
    throw new EnvelopeError(
      transportEnvelope('INSECURE_BASE_URL', {
        operation: 'provider.create',
        plugin: provider,
        failed_parameter: '--base-url',
        received_value: shown(url),
        expected: 'https, or http to a loopback host (127.0.0.1, ::1, localhost)',
        remediation: `Plain http to ${url.hostname} would send the prompt and the API key unencrypted. Use https; only loopback hosts are exempt, unless the user sets policy.allow_insecure_http = true in config.toml.`,
      }),
    );
  }
  return url;
}

/** `policy.allow_insecure_http` from the user's settings (true only for a real boolean true). */
export function allowsInsecureHttp(settings: Readonly<Record<string, unknown>>): boolean {
  const policy = settings.policy;
  return typeof policy === 'object' && policy !== null && (policy as Record<string, unknown>).allow_insecure_http === true;
}
