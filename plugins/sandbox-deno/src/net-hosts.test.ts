import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { normalizeNetHosts } from './net-hosts.js';

function codeOf(hosts: unknown): string | undefined {
  try {
    normalizeNetHosts(hosts as string[]);
    return undefined;
  } catch (error) {
    return isEnvelopeError(error) ? `${error.envelope.code} ${error.envelope.failed_parameter}` : 'not an envelope';
  }
}

describe('normalizeNetHosts', () => {
  it('accepts names, addresses and bracketed IPv6, with or without a port, lower-cased', () => {
    expect(normalizeNetHosts(['API.Example.com', '127.0.0.1:8080', '[::1]:443', 'localhost'])).toEqual(['api.example.com', '127.0.0.1:8080', '[::1]:443', 'localhost']);
  });

  it('takes an absent grant as no network', () => {
    expect(normalizeNetHosts(undefined)).toEqual([]);
  });

  it.each([
    ['an empty entry, which Deno would read as every host', ['']],
    ['a wildcard', ['*']],
    ['a comma that smuggles a second host', ['a.example,b.example']],
    ['a URL', ['https://a.example']],
    ['a path', ['a.example/x']],
    ['a space', ['a.example b']],
    ['port 0', ['a.example:0']],
    ['a port past 65535', ['a.example:70000']],
    ['a flag', ['--allow-all']],
    ['a number', [80]],
    ['userinfo that hides the real host', ['api.github.com@127.0.0.16:4000']],
    ['IPv4 as one decimal number', ['2130706433']],
    ['IPv4 in hex shorthand', ['0x7f.1']],
  ])('refuses %s', (_why, hosts) => {
    expect(codeOf(hosts)).toBe('SANDBOX_GRANT_INVALID $.grants.net[0]');
  });

  it('refuses a grant that is not a list', () => {
    expect(codeOf('a.example')).toBe('SANDBOX_GRANT_INVALID $.grants.net');
  });
});
