import { describe, expect, it } from 'vitest';
import { destinationOf, formatHostPattern, hostMatches, isLoopback, parseHostPattern, parsePathPrefix, pathMatches, type HostPattern } from './destination.js';

function pattern(text: string): HostPattern {
  const parsed = parseHostPattern(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed;
}

function matches(host: string, url: string): boolean {
  return hostMatches(pattern(host), destinationOf(new URL(url), 'GET')!);
}

describe('host patterns', () => {
  it.each([
    ['api.github.com', 'https://api.github.com/x', true],
    ['API.GitHub.COM', 'https://api.github.com/x', true],
    ['api.github.com', 'https://API.GITHUB.COM/x', true],
    ['api.github.com', 'https://api.github.com:443/x', true],
    ['api.github.com', 'https://api.github.com:8443/x', false],
    ['api.github.com:8443', 'https://api.github.com:8443/x', true],
    ['api.github.com:8443', 'https://api.github.com/x', false],
    ['api.github.com:443', 'http://api.github.com/x', false],
    ['api.github.com', 'https://api.github.com.evil.com/x', false],
    ['api.github.com', 'https://evilapi.github.com/x', false],
    ['github.com', 'https://api.github.com/x', false],
    ['127.0.0.1:8080', 'http://127.1:8080/x', true],
    ['[::1]:8080', 'http://[::1]:8080/', true],
    ['bücher.example', 'https://xn--bcher-kva.example/', true],
    ['xn--bcher-kva.example', 'https://bücher.example/', true],
    ['*.example.com', 'https://api.example.com/', true],
    ['*.example.com', 'https://example.com/', false],
    ['*.example.com', 'https://a.b.example.com/', false],
    ['*.example.com', 'https://badexample.com/', false],
    ['*.example.com', 'https://api.example.com:444/', false],
    ['*.example.com:444', 'https://api.example.com:444/', true],
  ])('%s against %s → %s', (host, url, expected) => {
    expect(matches(host, url)).toBe(expected);
  });

  it.each(['https://api.github.com', 'api.github.com/path', '*.com', 'a.*.example.com', '*.10.0.0.1', 'host:99999', 'user@host', ''])('refuses %j', (text) => {
    expect(parseHostPattern(text)).toHaveProperty('error');
  });

  it('stores the normalized spelling', () => {
    expect(formatHostPattern(pattern('Bücher.Example:8080'))).toBe('xn--bcher-kva.example:8080');
    expect(formatHostPattern(pattern('*.Example.com'))).toBe('*.example.com');
  });
});

describe('path prefixes', () => {
  it.each([
    [undefined, '/anything', true],
    ['/repos', '/repos', true],
    ['/repos', '/repos/a/b', true],
    ['/repos', '/repository', false],
    ['/repos/', '/repos/a', true],
    ['/repos/', '/repos', false],
    ['/a', '/b/a', false],
  ])('%s covers %s → %s', (prefix, path, expected) => {
    expect(pathMatches(prefix, path)).toBe(expected);
  });

  it('normalizes a prefix like a request path, and refuses one with a query', () => {
    expect(parsePathPrefix('/a/../repos')).toBe('/repos');
    expect(parsePathPrefix('repos')).toHaveProperty('error');
    expect(parsePathPrefix('/repos?x=1')).toHaveProperty('error');
  });

  it('sees a dot-segment escape after URL normalization, so /repos/../admin is not under /repos', () => {
    expect(pathMatches('/repos', destinationOf(new URL('https://h/repos/../admin'), 'GET')!.path)).toBe(false);
  });
});

describe('loopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.200.3.4', true],
    ['localhost', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['localhost.example', false],
    ['[::ffff:7f00:1]', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});
