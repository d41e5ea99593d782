import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from 'oauth4webapi';

/**
 * A PKCE pair (RFC 7636): a 43-character URL-safe verifier from 32 random bytes and its S256 challenge,
 * base64url(SHA-256(verifier)) without padding.
 */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = generateRandomCodeVerifier();
  return { verifier, challenge: await pkceChallenge(verifier) };
}

/** The S256 challenge of a verifier. */
export function pkceChallenge(verifier: string): Promise<string> {
  return calculatePKCECodeChallenge(verifier);
}
