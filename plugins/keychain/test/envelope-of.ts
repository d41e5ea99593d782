import { isEnvelopeError, type Envelope } from '@nodwyn/plugin-api';
import { expect } from 'vitest';

/**
 * The envelope `work` fails with. It also proves the envelope carries none of `secrets`, in any field:
 * a value must never leave the keychain through an error.
 */
export async function envelopeOf(work: Promise<unknown> | (() => unknown), secrets: readonly string[] = []): Promise<Envelope> {
  const outcome = await (typeof work === 'function' ? Promise.resolve().then(work) : work).then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected an envelope, but it succeeded with ${JSON.stringify(outcome.value)}`);
  if (!isEnvelopeError(outcome.error)) throw new Error(`expected an envelope, got ${String(outcome.error)}`);
  for (const secret of secrets) {
    expect(JSON.stringify(outcome.error.envelope)).not.toContain(secret);
    expect(outcome.error.message).not.toContain(secret);
  }
  return outcome.error.envelope;
}
