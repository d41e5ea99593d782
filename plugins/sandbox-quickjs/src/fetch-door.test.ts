import { describe, expect, it } from 'vitest';
import { hostGranted } from './fetch-door.js';

describe('hostGranted', () => {
  it.each([
    ['api.example.com', 'https://api.example.com/x', true],
    ['API.Example.com', 'https://api.example.com:8443/x', true],
    ['api.example.com:443', 'https://api.example.com/x', true],
    ['api.example.com:443', 'http://api.example.com/x', false],
    ['127.0.0.1:4000', 'http://127.0.0.1:4000/', true],
    ['127.0.0.1:4000', 'http://127.0.0.1:4001/', false],
    ['127.0.0.1:4000', 'http://localhost:4000/', false],
    ['example.com', 'https://api.example.com/', false],
    ['example.com', 'https://example.com.evil.test/', false],
    ['[::1]:8080', 'http://[::1]:8080/', true],
    ['not a host', 'https://example.com/', false],
  ])('%s covers %s: %s', (entry, url, expected) => {
    expect(hostGranted(entry, new URL(url))).toBe(expected);
  });
});
