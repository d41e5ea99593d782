import { describe, expect, it } from 'vitest';
import { parseFault, takeFault } from './fault-spec.js';

describe('fault specs', () => {
  it('parses every fault with its options, scope and count', () => {
    expect(parseFault('status=503;retry-after=2')).toEqual({ fault: { kind: 'status', status: 503, retryAfter: '2' } });
    expect(parseFault('createPet:reset;times=1')).toEqual({ operation: 'createPet', fault: { kind: 'reset' }, remaining: 1 });
    expect(parseFault('drop-after=3;retry=100')).toEqual({ fault: { kind: 'drop-after', events: 3, retry: 100 } });
    expect(parseFault('stall-after=2')).toEqual({ fault: { kind: 'stall-after', events: 2, ms: 30_000 } });
    expect(parseFault('delay=250')).toEqual({ fault: { kind: 'delay', ms: 250 } });
  });

  it('refuses malformed specs with an envelope', () => {
    for (const spec of ['explode', 'status=abc', 'status=700', 'delay=5;retry=1', 'reset;times=0', 'drop-after=1;oops']) {
      expect(() => parseFault(spec), spec).toThrow(expect.objectContaining({ envelope: expect.objectContaining({ code: 'MOCK_INJECT_INVALID' }) }));
    }
  });

  it('uses a counted fault up, and matches only its operation', () => {
    const rules = [parseFault('getPet:status=503;times=2')];
    expect(takeFault(rules, 'listPets')).toBeUndefined();
    expect(takeFault(rules, 'getPet')).toMatchObject({ kind: 'status' });
    expect(takeFault(rules, 'getPet')).toMatchObject({ kind: 'status' });
    expect(takeFault(rules, 'getPet')).toBeUndefined();
  });
});
