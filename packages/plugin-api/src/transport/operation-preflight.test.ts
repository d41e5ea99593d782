import { EnvelopeSchema } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { preflightArgs } from './operation-preflight.js';
import type { OperationDescriptor } from './operation-types.js';

const updateUser: OperationDescriptor = {
  id: 'acme.updateUser',
  method: 'PUT',
  url: 'https://api.example.test/v1/users/{userId}',
  params: [
    { name: 'userId', in: 'path', required: true },
    { name: 'cursor', in: 'query', required: false },
    { name: 'tags', in: 'query', required: false },
    { name: 'X-Trace', in: 'header', required: false },
    { name: 'token', in: 'query', required: false, sensitive: true },
  ],
  body: { required: true, mediaType: 'application/json' },
  tier: 'mutate',
  sensitive: ['body.password', 'body.profile.secret'],
};

function problem(args: unknown) {
  const result = preflightArgs(updateUser, args);
  if (result.ok) throw new Error('expected a problem');
  return EnvelopeSchema.parse(result.envelope);
}

describe('preflightArgs', () => {
  it('accepts one flat object and drops optional arguments set to undefined', () => {
    const result = preflightArgs(updateUser, { userId: 'u1', cursor: undefined, body: { name: 'Ada', nick: undefined } });
    expect(result).toEqual({ ok: true, args: { userId: 'u1', body: { name: 'Ada' } } });
  });

  it('refuses what is not an object, and unknown keys, naming the known ones', () => {
    expect(problem([1, 2])).toMatchObject({ category: 'VALIDATION_FAILED', code: 'ARGS_INVALID', failed_parameter: null });
    expect(problem({ userId: 'u1', body: {}, usrId: 'x' })).toMatchObject({ code: 'ARGS_INVALID', failed_parameter: 'usrId', expected: 'one of: userId, cursor, tags, X-Trace, token, body' });
  });

  it('names a missing required parameter and a missing body', () => {
    expect(problem({ body: {} })).toMatchObject({ code: 'PARAM_MISSING', failed_parameter: 'userId', received_value: null });
    expect(problem({ userId: 'u1' })).toMatchObject({ code: 'PARAM_MISSING', failed_parameter: 'body' });
  });

  it('refuses a path parameter that would make an empty or dot segment', () => {
    for (const bad of ['', '.', '..']) {
      expect(problem({ userId: bad, body: {} })).toMatchObject({ category: 'VALIDATION_FAILED', code: 'PATH_SEGMENT_INVALID', failed_parameter: 'userId' });
    }
    expect(preflightArgs(updateUser, { userId: '...', body: {} }).ok).toBe(true);
  });

  it('wants scalars in parameters (a query one may be an array) and one-line header values', () => {
    expect(problem({ userId: { id: 1 }, body: {} })).toMatchObject({ code: 'ARGS_INVALID', failed_parameter: 'userId' });
    expect(preflightArgs(updateUser, { userId: 'u1', tags: ['a', 'b'], body: {} }).ok).toBe(true);
    expect(problem({ userId: 'u1', 'X-Trace': 'a\r\nInjected: 1', body: {} })).toMatchObject({ failed_parameter: 'X-Trace' });
  });

  it('refuses a body that is not JSON, at its path', () => {
    expect(problem({ userId: 'u1', body: { tags: ['a', Number.NaN] } })).toMatchObject({ failed_parameter: 'body.tags[1]' });
    expect(problem({ userId: 'u1', body: { when: new Date(0) } })).toMatchObject({ failed_parameter: 'body.when' });
  });

  it('redacts received_value of a sensitive field, below a sensitive parent, and above one', () => {
    expect(problem({ userId: 'u1', token: { value: 'hunter2' }, body: {} })).toMatchObject({ failed_parameter: 'token', received_value: '[sensitive]' });
    const parent: OperationDescriptor = { ...updateUser, sensitive: ['body.profile'] };
    const below = preflightArgs(parent, { userId: 'u1', body: { profile: { pin: Number.POSITIVE_INFINITY } } });
    expect(!below.ok && below.envelope).toMatchObject({ failed_parameter: 'body.profile.pin', received_value: '[sensitive]' });
    const above = preflightArgs({ ...updateUser, body: { required: true, mediaType: 'application/x-www-form-urlencoded' } }, { userId: 'u1', body: 'password=hunter2' });
    expect(!above.ok && above.envelope).toMatchObject({ failed_parameter: 'body', received_value: '[sensitive]' });
    expect(JSON.stringify(above)).not.toContain('hunter2');
  });

  it('cuts a long received_value at 200 characters', () => {
    const envelope = problem({ userId: 'u1', body: {}, extra: 'x'.repeat(500) });
    expect(envelope.received_value).toHaveLength(201);
  });
});
