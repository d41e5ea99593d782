import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keychainFail } from './errors.js';

/** A sealed value: AES-256-GCM ciphertext with its IV and tag, base64. */
export interface Sealed {
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

/** Seals `plaintext`, binding it to `aad` (the entry's name and class, so entries cannot be swapped). */
export function seal(key: Buffer, plaintext: string, aad: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** Opens a sealed value; a wrong key, a wrong AAD or any edited byte is `AUTH_FAILED`. */
export function open(key: Buffer, sealed: Sealed, aad: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return keychainFail('KEYCHAIN_KEY_WRONG', {
      category: 'AUTH_FAILED',
      remediation: 'The keychain could not be opened with this key: a wrong passphrase or key file, or the file was edited. Check NODWYN_KEYCHAIN_PASSPHRASE / the key file.',
    });
  }
}
