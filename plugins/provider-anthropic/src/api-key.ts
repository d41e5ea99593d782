import type { ProviderOptions } from '@nodwyn/plugin-api';
import { anthropicError } from './errors.js';
import { optionText } from './anthropic-options.js';

/** Anthropic's own API: the base URL by default, and the one host the environment's ANTHROPIC_API_KEY is ever sent to. */
export const OFFICIAL_BASE_URL = 'https://api.anthropic.com';
const OFFICIAL_HOST = 'api.anthropic.com';

/** Keychain secret names, as handles carry them (`{{secret:NAME}}`). */
const HANDLE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Loopback hosts, where a local server or test double needs no key. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Anthropic keys start `sk-ant-`; one given as a handle name would end up in the log as that name. */
const LOOKS_LIKE_KEY = /^sk-ant-/i;

function handleName(raw: string): string {
  const name = raw.replace(/^\{\{secret:(.*)\}\}$/, '$1').replace(/^secret:/, '');
  if (HANDLE_NAME.test(name) && !LOOKS_LIKE_KEY.test(name)) return name;
  throw anthropicError('OPTION_INVALID', {
    operation: 'provider.create',
    failed_parameter: '--api-key',
    sensitive: true,
    received_value: raw,
    expected: 'the name of a keychain secret (letters, digits, _ . -)',
    remediation: '--api-key takes the NAME of a keychain secret, never the key itself: `nodwyn secret add NAME --class control-plane` stores the key, then pass --api-key NAME.',
  });
}

function missing(url: URL): never {
  const fromEnv = url.host === OFFICIAL_HOST ? ' Or set ANTHROPIC_API_KEY in the environment (it is sent to api.anthropic.com only).' : '';
  throw anthropicError('CREDENTIAL_MISSING', {
    operation: 'provider.create',
    failed_parameter: '--api-key',
    expected: `a keychain secret bound to ${url.host}`,
    remediation: `anthropic has no API key for ${url.host}. Store it in the keychain and bind its class to the host: \`nodwyn secret add NAME --class control-plane\`, then \`nodwyn bind add control-plane --host ${url.host} --position header:authorization --method POST\`, then pass --api-key NAME or set api_key = "NAME" in [provider.anthropic] of config.toml.${fromEnv}`,
  });
}

/**
 * What the SDK sends as `authorization: Bearer <key>`, or undefined to send no authorization header.
 * An `api_key` option is a keychain handle: the header carries the literal `{{secret:NAME}}`, which the
 * kernel's guarded fetch replaces only after the egress check, so the value never passes through here.
 * Without one, ANTHROPIC_API_KEY is used for https://api.anthropic.com only, a loopback server gets no
 * key, and any other host is refused before a request is sent.
 */
export function apiKeyFor(url: URL, options: ProviderOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const handle = optionText(options, 'api_key', '--api-key');
  if (handle !== undefined) return `{{secret:${handleName(handle)}}}`;
  if (url.protocol === 'https:' && url.hostname === OFFICIAL_HOST && url.port === '') {
    const key = env.ANTHROPIC_API_KEY?.trim();
    if (key) return key;
    return missing(url);
  }
  if (isLoopback(url.hostname)) return undefined;
  return missing(url);
}
