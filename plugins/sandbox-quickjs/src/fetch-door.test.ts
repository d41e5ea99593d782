import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { netGrants } from './fetch-door.js';

describe('netGrants', () => {
  it('normalises plain hosts the way the registry stores them', () => {
    expect(netGrants(['API.Example.com', '127.0.0.1:4000', '[::1]:8080']).map((g) => g.text)).toEqual(['api.example.com', '127.0.0.1:4000', '[::1]:8080']);
    expect(netGrants(undefined)).toEqual([]);
  });

  it.each(['api.github.com@127.0.0.16:4000', '2130706433', '0x7f.1', 'https://api.example.com', 'example.com/path', '*.example.com'])(
    'refuses %s with SANDBOX_GRANT_INVALID naming the entry',
    (entry) => {
      let caught: unknown;
      try {
        netGrants(['api.example.com', entry]);
      } catch (error) {
        caught = error;
      }
      expect(isEnvelopeError(caught) && caught.envelope).toMatchObject({ code: 'SANDBOX_GRANT_INVALID', category: 'VALIDATION_FAILED', failed_parameter: '$.grants.net[1]', received_value: entry });
    },
  );
});
