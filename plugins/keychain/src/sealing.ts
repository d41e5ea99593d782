import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A sealed value: AES-256-GCM ciphertext with its IV and tag, base64. */
export interface Sealed {
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals `plaintext` under a fresh IV, binding it to `aad` (an entry's name and class, so entries cannot be swapped). */
export function seal(key: Buffer, plaintext: string, aad: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/**
 * Opens a sealed value, or `undefined` when it does not authenticate (wrong key, wrong AAD, any edited
 * byte). The caller knows which of those it is and picks the envelope; the cipher's own error says nothing more.
 */
export function open(key: Buffer, sealed: Sealed, aad: string): string | undefined {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const body = decipher.update(Buffer.from(sealed.data, 'base64'));
  try {
    return Buffer.concat([body, decipher.final()]).toString('utf8');
  } catch (error) {
    // final() throws only on a tag mismatch here: IV and tag lengths were checked by the file schema.
    if (error instanceof Error && /unable to authenticate/i.test(error.message)) return undefined;
    throw error;
  }
}
