import { describe, expect, it } from 'vitest';
import { hostGranted } from './fetch-door.js';

const url = (text: string) => new URL(text);

describe('hostGranted', () => {
  it('matches host:port exactly, and a bare host on any port', () => {
    expect(hostGranted(url('http://127.0.0.1:8080/x'), ['127.0.0.1:8080'])).toBe(true);
    expect(hostGranted(url('http://127.0.0.1:8081/x'), ['127.0.0.1:8080'])).toBe(false);
    expect(hostGranted(url('https://api.example.com/v1'), ['api.example.com'])).toBe(true);
    expect(hostGranted(url('https://api.example.com:8443/v1'), ['api.example.com'])).toBe(true);
  });

  it('uses the default port of the scheme when the URL names none', () => {
    expect(hostGranted(url('https://api.example.com/'), ['api.example.com:443'])).toBe(true);
    expect(hostGranted(url('http://api.example.com/'), ['api.example.com:80'])).toBe(true);
    expect(hostGranted(url('http://api.example.com/'), ['api.example.com:443'])).toBe(false);
  });

  it('compares names as spelled: no resolving, no subdomains, case-insensitive', () => {
    expect(hostGranted(url('http://localhost:8080/'), ['127.0.0.1:8080'])).toBe(false);
    expect(hostGranted(url('https://evil.api.example.com/'), ['api.example.com'])).toBe(false);
    expect(hostGranted(url('https://api.example.com.evil.io/'), ['api.example.com'])).toBe(false);
    expect(hostGranted(url('https://API.Example.com/'), ['api.example.COM'])).toBe(true);
  });

  it('handles IPv6 literals and ignores entries that are not hosts', () => {
    expect(hostGranted(url('http://[::1]:9000/'), ['[::1]:9000'])).toBe(true);
    expect(hostGranted(url('http://[::1]:9000/'), ['::1'])).toBe(false);
    expect(hostGranted(url('http://example.com/'), ['', 'exa mple.com', 'http://example.com'])).toBe(false);
  });

  it('grants nothing for an entry that reads as one host and names another (userinfo, IPv4 shorthands)', () => {
    expect(hostGranted(url('http://127.0.0.16:4000/'), ['api.github.com@127.0.0.16:4000'])).toBe(false);
    expect(hostGranted(url('http://127.0.0.1/'), ['2130706433', '0x7f.1', '127.1'])).toBe(false);
  });
});
