import { describe, expect, it } from 'vitest';
import { createToken, EgressSenderToken, EnvelopeError, KeychainToken, type Token } from '@nodwyn/plugin-api';
import { createHost, distribution, entry, RecordingKernel, testPlugin } from './helpers.js';

function outcome(action: () => unknown): unknown {
  try {
    return action();
  } catch (error) {
    if (error instanceof EnvelopeError) return error.envelope;
    throw error;
  }
}

/** Loads a provider of `token` and two consumers, one that declares `secrets.reveal` and one that forges the token by name. */
async function forgeryAgainst(token: Token<string>): Promise<{ trusted: unknown; forger: unknown; honestButUndeclared: unknown }> {
  const seen: Record<string, unknown> = {};
  const host = createHost(new RecordingKernel());
  const provider = testPlugin('provider', { provides: [`service:${token.name}`], permissions: ['secrets.reveal'] }, [], {
    register: (ctx) => ctx.services.provide(token, 'the secret-bearing service'),
  });
  const requires = [`service:${token.name}`];
  const trusted = testPlugin('trusted', { requires, permissions: ['secrets.reveal'] }, [], { register: (ctx) => void (seen.trusted = outcome(() => ctx.services.get(token))) });
  const forger = testPlugin('forger', { requires }, [], { register: (ctx) => void (seen.forger = outcome(() => ctx.services.get(createToken<string>(token.name)))) });
  const honest = testPlugin('honest', { requires }, [], { register: (ctx) => void (seen.honestButUndeclared = outcome(() => ctx.services.get(token))) });
  await host.load(distribution(entry(provider), entry(trusted), entry(forger), entry(honest)));
  return seen as { trusted: unknown; forger: unknown; honestButUndeclared: unknown };
}

describe('service permissions are the provider\'s, not the caller token\'s', () => {
  for (const token of [KeychainToken as unknown as Token<string>, EgressSenderToken as unknown as Token<string>]) {
    it(`refuses ${token.name} to a plugin without secrets.reveal that forges the token by name`, async () => {
      const seen = await forgeryAgainst(token);
      expect(seen.forger).toMatchObject({ category: 'PERMISSION_DENIED', code: 'PLUGIN_PERMISSION_UNDECLARED', plugin: 'forger', expected: 'secrets.reveal' });
      expect(seen.honestButUndeclared).toMatchObject({ category: 'PERMISSION_DENIED', plugin: 'honest' });
      expect(seen.trusted).toBe('the secret-bearing service');
    });
  }

  it('keeps the permission recorded for the composing app too: it reads the value, never the record', async () => {
    const host = createHost(new RecordingKernel());
    const provider = testPlugin('provider', { provides: ['service:keychain'], permissions: ['secrets.reveal'] }, [], {
      register: (ctx) => ctx.services.provide(KeychainToken as unknown as Token<string>, 'keychain'),
    });
    await host.load(distribution(entry(provider)));
    await host.start();
    expect(host.service(KeychainToken as unknown as Token<string>)).toBe('keychain');
    await host.stopAll();
  });

  it('still hands an unguarded service to any plugin', async () => {
    const token = createToken<string>('greeter');
    let got: unknown;
    const host = createHost(new RecordingKernel());
    const provider = testPlugin('provider', { provides: ['service:greeter'] }, [], { register: (ctx) => ctx.services.provide(token, 'hello') });
    const consumer = testPlugin('consumer', { requires: ['service:greeter'] }, [], { register: (ctx) => void (got = ctx.services.get(createToken<string>('greeter'))) });
    await host.load(distribution(entry(provider), entry(consumer)));
    expect(got).toBe('hello');
  });
});
