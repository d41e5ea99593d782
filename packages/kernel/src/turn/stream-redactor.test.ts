import { describe, expect, it } from 'vitest';
import { StreamRedactor } from './stream-redactor.js';

const SECRET = 'sk-live-0123456789abcdefghij';
const redact = (text: string) => text.replaceAll(/sk-live-[a-z0-9]{20}/g, '[REDACTED key]');

function play(deltas: readonly string[]): string[] {
  const r = new StreamRedactor(redact);
  const out = deltas.map((d) => r.push(d));
  out.push(r.flush());
  return out.filter((s) => s !== '');
}

describe('the streaming redactor', () => {
  it('catches a secret split across deltas, and loses no text', () => {
    const shown = play(['Your key is sk-li', 've-0123456789', 'abcdefghij, keep it', ' safe.\nNext line']);
    expect(shown.join('')).toBe('Your key is [REDACTED key], keep it safe.\nNext line');
    expect(shown.join('')).not.toContain('sk-li');
  });

  it('lets a long line out early, at a space before a tail long enough to hold a split secret', () => {
    const words = `${'word '.repeat(1000)}`;
    const shown = play([words, SECRET.slice(0, 10), SECRET.slice(10), ' end']);
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.join('')).toBe(`${words}[REDACTED key] end`);
  });

  it('holds a PEM block until its END line', () => {
    const r = new StreamRedactor((text) => text.replaceAll(/-----BEGIN KEY-----[\s\S]*?-----END KEY-----/g, '[REDACTED pem]'));
    expect(r.push('before\n-----BEGIN KEY-----\n')).toBe('before\n');
    expect(r.push('MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n')).toBe('');
    expect(r.push('-----END KEY-----\nafter\n')).toBe('[REDACTED pem]\nafter\n');
  });
});
