import { SECRET_HANDLE, type Keychain } from '@nodwyn/plugin-api';
import { egressError } from './errors.js';
import { mapValues, positionsOf, type PreparedRequest } from './request.js';
import type { RevealedValue } from './scrub.js';

/** A secret revealed for one request. */
export interface RevealedSecret extends RevealedValue {
  readonly name: string;
}

/** The handle names in one text, in order. */
export function handlesIn(text: string): string[] {
  return [...text.matchAll(SECRET_HANDLE)].map((match) => match[1]!);
}

/** The distinct handle names in a request's values. */
export function handleNames(request: PreparedRequest): string[] {
  return [...new Set(positionsOf(request).flatMap((position) => handlesIn(position.value)))];
}

/**
 * Reveals each named secret once. The egress stage already checked the handles, but a secret removed
 * between the check and this call is still a clean envelope rather than a handle sent as text.
 */
export async function revealAll(names: readonly string[], keychain: Keychain): Promise<Map<string, RevealedSecret>> {
  const secrets = new Map<string, RevealedSecret>();
  for (const name of names) {
    const info = await keychain.info(name);
    if (!info) {
      throw egressError('SECRET_UNKNOWN', {
        operation: 'http_request',
        received_value: name,
        remediation: `There is no secret named "${name}" in the keychain any more; ask the user to add it again.`,
      });
    }
    secrets.set(name, { name, class: info.class, value: await keychain.reveal(name) });
  }
  return secrets;
}

/** The request with every handle replaced by its value: done in the handler only, after the guard passed. */
export function substituteHandles(request: PreparedRequest, secrets: ReadonlyMap<string, RevealedSecret>): PreparedRequest {
  return mapValues(request, (text) => text.replace(SECRET_HANDLE, (handle, name: string) => secrets.get(name)?.value ?? handle));
}

/**
 * The values to scrub and remember: each secret, plus the `user:password` pair when basic auth carried
 * one, because its base64 is what an echo server sends back and it contains neither value's own base64.
 */
export function revealedValues(secrets: ReadonlyMap<string, RevealedSecret>, original: PreparedRequest, sent: PreparedRequest): RevealedValue[] {
  const values: RevealedValue[] = [...secrets.values()].map(({ value, class: cls }) => ({ value, class: cls }));
  if (original.basic && sent.basic) {
    const names = [...handlesIn(original.basic.user), ...handlesIn(original.basic.password)];
    const cls = names.map((name) => secrets.get(name)?.class).find((c) => c !== undefined);
    if (cls !== undefined) values.push({ value: `${sent.basic.user}:${sent.basic.password}`, class: cls });
  }
  return values;
}
