import { describe, expect, it } from 'vitest';
import { netGrantCovers, parseNetGrant } from './net-grant.js';

describe('parseNetGrant', () => {
  it.each([
    ['api.github.com', 'api.github.com'],
    ['API.GitHub.com', 'api.github.com'],
    ['api.github.com:8443', 'api.github.com:8443'],
    ['127.0.0.1:4000', '127.0.0.1:4000'],
    ['localhost', 'localhost'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['[::1]:8080', '[::1]:8080'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
  ])('accepts %s, normalised to %s', (entry, text) => {
    expect(parseNetGrant(entry)?.text).toBe(text);
  });

  it.each([
    ['userinfo that hides the real host', 'api.github.com@127.0.0.16:4000'],
    ['userinfo without a port', 'user:pass@example.com'],
    ['IPv4 as one decimal number', '2130706433'],
    ['IPv4 in hex shorthand', '0x7f.1'],
    ['IPv4 with fewer parts', '127.1'],
    ['IPv4 in octal', '0177.0.0.1'],
    ['IPv4 with padded parts', '127.000.0.1'],
    ['IPv4 in full-width digits', '１２７.０.０.１'],
    ['a path', 'api.github.com/repos'],
    ['a URL', 'https://api.github.com'],
    ['a query', 'example.com?x=1'],
    ['a fragment', 'example.com#x'],
    ['a backslash', 'example.com\\evil.test'],
    ['percent escapes', 'example%2ecom'],
    ['a wildcard', '*.github.com'],
    ['a list in one entry', 'a.com,b.com'],
    ['whitespace', ' example.com'],
    ['an empty entry', ''],
    ['port 0', 'example.com:0'],
    ['a port past 65535', 'example.com:65536'],
    ['a port with a leading zero', 'example.com:0443'],
    ['an empty port', 'example.com:'],
    ['a trailing dot', 'example.com.'],
    ['an underscore', 'my_host.example'],
  ])('refuses %s (%s)', (_why, entry) => {
    expect(parseNetGrant(entry)).toBeUndefined();
  });
});

describe('netGrantCovers', () => {
  const covers = (entry: string, url: string) => netGrantCovers(parseNetGrant(entry)!, new URL(url));

  it('matches the host as a URL spells it, any port unless one is granted', () => {
    expect(covers('api.example.com', 'https://API.example.com:8443/x')).toBe(true);
    expect(covers('api.example.com:443', 'https://api.example.com/x')).toBe(true);
    expect(covers('api.example.com:443', 'http://api.example.com/x')).toBe(false);
    expect(covers('127.0.0.1:4000', 'http://127.0.0.1:4000/')).toBe(true);
    expect(covers('127.0.0.1:4000', 'http://localhost:4000/')).toBe(false);
    expect(covers('example.com', 'https://example.com.evil.test/')).toBe(false);
    expect(covers('[::1]:8080', 'http://[::1]:8080/')).toBe(true);
  });

  it('compares the host the URL really names: userinfo does not pass for it, a shorthand URL is the address it spells', () => {
    expect(covers('api.github.com', 'http://api.github.com@127.0.0.16/')).toBe(false);
    expect(covers('127.0.0.1', 'http://2130706433/')).toBe(true);
  });
});
