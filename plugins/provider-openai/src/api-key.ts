import { type ProviderOptions } from '@nodwyn/plugin-api';
import { isLoopback } from '@nodwyn/plugin-api/transport';
import { openAiError } from './errors.js';
import { optionText } from './provider-options.js';

/** The one host the environment's OPENAI_API_KEY is ever sent to. */
export const OFFICIAL_HOST = 'api.openai.com';

/** Keychain secret names, as handles carry them (`{{secret:NAME}}`). */
const HANDLE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function handleName(raw: string): string {
  const name = raw.replace(/^secret:/, '');
  if (HANDLE_NAME.test(name)) return name;
  throw openAiError('OPTION_INVALID', {
    operation: 'provider.create',
    failed_parameter: '--api-key',
    received_value: raw,
    expected: 'the name of a keychain secret (letters, digits, _ . -)',
    remediation: '--api-key takes the NAME of a keychain secret, never the key itself: `nodwyn secret add NAME --class control-plane` stores the key, then pass --api-key NAME.',
  });
}

function missing(url: URL, provider: string): never {
  const fromEnv = url.hostname === OFFICIAL_HOST ? ' Or set OPENAI_API_KEY in the environment (it is sent to api.openai.com only).' : '';
  throw openAiError('CREDENTIAL_MISSING', {
    operation: 'provider.create',
    failed_parameter: '--api-key',
    expected: `a keychain secret bound to ${url.host}`,
    remediation: `${provider} has no API key for ${url.host}. Store it in the keychain and bind its class to the host: \`nodwyn secret add NAME --class control-plane\`, then \`nodwyn bind add control-plane --host ${url.host} --position header:authorization --method POST\`, then pass --api-key NAME or set api_key = "NAME" in [provider.${provider}] of config.toml.${fromEnv}`,
  });
}

/**
 * What the SDK sends as `Authorization: Bearer <key>`, or undefined to send no Authorization header.
 * An `api_key` option is a keychain handle: the header carries the literal `{{secret:NAME}}`, which the
 * kernel's guarded fetch replaces only after the egress check, so the value never passes through here.
 * Without one, OPENAI_API_KEY is used for api.openai.com over https only, a loopback server gets no key,
 * and any other host is refused before a request is sent.
 */
export function apiKeyFor(url: URL, options: ProviderOptions, provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const handle = optionText(options, 'api_key', '--api-key');
  if (handle !== undefined) return `{{secret:${handleName(handle)}}}`;
  if (url.protocol === 'https:' && url.hostname === OFFICIAL_HOST) {
    const key = env.OPENAI_API_KEY?.trim();
    if (key) return key;
    return missing(url, provider);
  }
  if (isLoopback(url.hostname)) return undefined;
  return missing(url, provider);
}
