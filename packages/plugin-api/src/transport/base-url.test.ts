import type { Envelope } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { isEnvelopeError } from '../envelope.js';
import { allowsInsecureHttp, checkBaseUrl } from './base-url.js';

function refusal(raw: string, allowInsecureHttp = false): Envelope | undefined {
  try {
    checkBaseUrl(raw, { provider: 'openai-compatible', allowInsecureHttp });
    return undefined;
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    return error.envelope;
  }
}

describe('checkBaseUrl', () => {
  it.each(['https://api.openai.com/v1', 'https://10.0.0.5:8443/v1', 'http://127.0.0.1:11434/v1', 'http://127.1:8080', 'http://[::1]:1234/v1', 'http://localhost:1234/v1'])(
    'accepts %s',
    (raw) => {
      expect(checkBaseUrl(raw, { provider: 'openai-compatible', allowInsecureHttp: false })).toBeInstanceOf(URL);
    },
  );

  it('returns the parsed URL', () => {
    expect(checkBaseUrl(' https://api.anthropic.com ', { provider: 'anthropic', allowInsecureHttp: false }).host).toBe('api.anthropic.com');
  });

  it.each(['http://10.0.0.5:8000/v1', 'http://api.example.com/v1', 'http://localhost.example.com/v1', 'http://[::2]/v1'])('refuses plain http to %s', (raw) => {
    expect(refusal(raw)).toMatchObject({ category: 'VALIDATION_FAILED', code: 'INSECURE_BASE_URL', failed_parameter: '--base-url', plugin: 'openai-compatible' });
    expect(refusal(raw)?.remediation).toContain('policy.allow_insecure_http');
  });

  it('allows plain http to any host when the user allowed insecure http', () => {
    expect(refusal('http://10.0.0.5:8000/v1', true)).toBeUndefined();
  });

  it.each(['ftp://example.com/v1', 'file:///etc/passwd', 'not a url', '', 'javascript:alert(1)', '//api.example.com'])('refuses %j', (raw) => {
    expect(refusal(raw, true)).toMatchObject({ category: 'VALIDATION_FAILED', code: 'BASE_URL_INVALID', failed_parameter: '--base-url' });
  });

  it('refuses credentials in the URL without showing them', () => {
    const env = refusal('https://user:s3cret@api.example.com/v1?key=k3y');
    expect(env).toMatchObject({ code: 'BASE_URL_INVALID', received_value: 'https://api.example.com/v1' });
    expect(JSON.stringify(env)).not.toMatch(/s3cret|k3y/);
  });
});

describe('allowsInsecureHttp', () => {
  it('is true only for a real boolean true under policy', () => {
    expect(allowsInsecureHttp({ policy: { allow_insecure_http: true } })).toBe(true);
    expect(allowsInsecureHttp({ policy: { allow_insecure_http: 'true' } })).toBe(false);
    expect(allowsInsecureHttp({ policy: { allow_insecure_http: 1 } })).toBe(false);
    expect(allowsInsecureHttp({ allow_insecure_http: true })).toBe(false);
    expect(allowsInsecureHttp({})).toBe(false);
  });
});
