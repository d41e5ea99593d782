import type { Kernel } from '@nodwyn/kernel';
import { EnvelopeError, toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { SecretInfoSchema, type SecretInfo } from '@nodwyn/protocol';
import { parsedOutput } from './command-output.js';
import { runPluginCommand } from './setup-commands.js';

/** `_nodwyn/secrets/add`'s params: the value goes to the keychain's stdin and nowhere else. */
export interface SecretToAdd {
  readonly name: string;
  readonly class: string;
  readonly value: string;
  readonly force?: boolean;
}

/** `_nodwyn/secrets/list`: the keychain's `secret list --json` (names, classes, dates; there is no value to show). */
export async function listSecrets(kernel: Kernel): Promise<{ secrets: SecretInfo[] }> {
  const { stdout } = await runPluginCommand(kernel, 'secret', ['list'], { json: true });
  return { secrets: parsedOutput(stdout, SecretInfoSchema.array(), 'secret list --json') };
}

/**
 * `_nodwyn/secrets/add`: `secret add NAME --class C [--force]` with the value on its stdin, as a person
 * pipes it (docs/architecture.md §6: values live in the keychain only). The answer names the secret; a
 * refusal's envelope is the keychain's, with the value (and its base64 and hex forms) cut out of every
 * field should any check ever echo it, so it cannot reach a client, a log line or the daemon's output.
 */
export async function addSecret(kernel: Kernel, secret: SecretToAdd): Promise<{ name: string; class: string }> {
  try {
    await runPluginCommand(kernel, 'secret', ['add', secret.name], { class: secret.class, ...(secret.force ? { force: true } : {}) }, secret.value);
  } catch (error) {
    // Rebuilt without its cause: only the scrubbed envelope leaves.
    throw new EnvelopeError(withoutValue(toEnvelope(error, { operation: 'secrets/add' }), secret.value));
  }
  return { name: secret.name, class: secret.class };
}

const CUT = '[REDACTED secret value]';

/** The envelope with every form of `value` (as given, JSON-escaped, base64, base64url, hex) cut out of each of its strings. */
export function withoutValue(envelope: Envelope, value: string): Envelope {
  const bytes = Buffer.from(value, 'utf8');
  const forms = [...new Set([value, JSON.stringify(value).slice(1, -1), bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')])];
  const scrub = (item: unknown): unknown => {
    if (typeof item === 'string') return forms.reduce((text, form) => text.split(form).join(CUT), item);
    if (Array.isArray(item)) return item.map(scrub);
    if (typeof item === 'object' && item !== null) return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, scrub(inner)]));
    return item;
  };
  return scrub(envelope) as Envelope;
}
