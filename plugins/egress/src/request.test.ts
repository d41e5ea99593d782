import { describe, expect, it } from 'vitest';
import { egressTargetsOf, mapValues, prepareRequest } from './request.js';
import { toWire } from './wire.js';

describe('egress targets of http_request', () => {
  it('lists every header, query parameter (URL and argument), JSON leaf and basic credential', () => {
    const [target] = egressTargetsOf({
      method: 'POST',
      url: 'https://api.example.com/v1/items?page=2#frag',
      headers: { Authorization: 'Bearer {{secret:api}}' },
      query: { key: '{{secret:api}}' },
      body: { auth: { token: '{{secret:api}}' }, tags: ['a', 7], ok: null },
      basic_auth: { user: 'me', password: '{{secret:pw}}' },
    });
    expect(target!.method).toBe('POST');
    expect(target!.url).toBe('https://api.example.com/v1/items?page=2&key=%7B%7Bsecret%3Aapi%7D%7D');
    expect(target!.positions.map((p) => [p.kind, p.name, p.value])).toEqual([
      ['header', 'Authorization', 'Bearer {{secret:api}}'],
      ['query', 'page', '2'],
      ['query', 'key', '{{secret:api}}'],
      ['body', '$.auth.token', '{{secret:api}}'],
      ['body', '$.tags[0]', 'a'],
      ['body', '$.tags[1]', '7'],
      ['body', '$.ok', 'null'],
      ['basic', 'user', 'me'],
      ['basic', 'password', '{{secret:pw}}'],
    ]);
  });

  it('gives a raw body and a scalar JSON body the whole-body position $', () => {
    expect(egressTargetsOf({ method: 'PUT', url: 'https://h/', body: 'raw text' })[0]!.positions).toEqual([{ kind: 'body', name: '$', value: 'raw text' }]);
    expect(egressTargetsOf({ method: 'PUT', url: 'https://h/', body: 42 })[0]!.positions).toEqual([{ kind: 'body', name: '$', value: '42' }]);
  });

  it('substitutes values only, never names or JSON keys, and sends what it described', () => {
    const request = prepareRequest({ method: 'POST', url: 'https://h/p?a={{x}}', headers: { 'X-{{x}}': '{{x}}' }, body: { '{{x}}': ['{{x}}'] }, basic_auth: { user: '{{x}}', password: 'p' } });
    const wire = toWire(mapValues(request, (text) => text.replace('{{x}}', 'V')));
    expect(wire.url.href).toBe('https://h/p?a=V');
    expect(wire.headers).toEqual([
      ['X-{{x}}', 'V'],
      ['Authorization', `Basic ${Buffer.from('V:p').toString('base64')}`],
      ['Content-Type', 'application/json'],
    ]);
    expect(wire.body).toBe('{"{{x}}":["V"]}');
  });
});
