import { describe, expect, it } from 'vitest';
import { validateConfig } from './config.js';

describe('the [serve] section of config.toml', () => {
  it('takes a host and the TLS files', () => {
    const config = validateConfig({ serve: { host: '192.168.1.5', tls_cert: '/etc/nodwyn/cert.pem', tls_key: '/etc/nodwyn/key.pem' } }, 'config.toml');
    expect(config.serve).toEqual({ host: '192.168.1.5', tls_cert: '/etc/nodwyn/cert.pem', tls_key: '/etc/nodwyn/key.pem' });
  });

  it('refuses a key it does not know, naming it', () => {
    expect(() => validateConfig({ serve: { hots: 'x' } }, 'config.toml')).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ code: 'CONFIG_INVALID', failed_parameter: '$.serve' }) }));
  });
});
