import { describe, expect, expectTypeOf, it } from 'vitest';
import { definePlugin } from './define-plugin.js';
import { describeDependencies, lookup, optional } from './dependencies.js';
import { isEnvelopeError } from './envelope.js';
import { PluginApiCodes } from './errors.js';
import { JudgeToken, type Judge } from './judge.js';
import { KeychainToken, RedactorToken, TaintToken, type Keychain, type Redactor, type TaintTracker } from './services.js';
import { createToken } from './tokens.js';

const manifest = { name: 'p', version: '1.0.0', apiVersion: '^0.1.0' } as const;

function refusal(define: () => unknown) {
  try {
    define();
  } catch (error) {
    if (isEnvelopeError(error)) return error.envelope;
    throw error;
  }
  throw new Error('expected definePlugin to refuse');
}

describe('typed plugin dependencies', () => {
  it('types each dependency by its token: required as the service, optional as service | undefined, lookup as a getter', () => {
    const plugin = definePlugin({
      manifest: { ...manifest, permissions: ['secrets.reveal'] },
      deps: { keychain: KeychainToken, taint: optional(TaintToken), judge: lookup(JudgeToken) },
      register(_ctx, deps) {
        expectTypeOf(deps.keychain).toEqualTypeOf<Keychain>();
        expectTypeOf(deps.taint).toEqualTypeOf<TaintTracker | undefined>();
        expectTypeOf(deps.judge).toEqualTypeOf<() => Judge | undefined>();
      },
      start(_ctx, deps) {
        expectTypeOf(deps.keychain).toEqualTypeOf<Keychain>();
      },
    });
    expectTypeOf(plugin.register).parameter(1).toEqualTypeOf<{ readonly keychain: Keychain; readonly taint: TaintTracker | undefined; readonly judge: () => Judge | undefined }>();
    // @ts-expect-error: a name that was not declared is not in deps.
    definePlugin({ manifest, deps: { redactor: RedactorToken }, register: (_ctx, deps) => void deps.taint });
  });

  it('a plugin without deps still takes register(ctx) alone', () => {
    const plugin = definePlugin({ manifest, register: () => undefined });
    expect(plugin.manifest.requires).toEqual([]);
    expect(plugin.deps).toBeUndefined();
  });

  it('adds service:<name> to requires for each required dependency, once, and none for optional or lookup ones', () => {
    const plugin = definePlugin({
      manifest: { ...manifest, requires: ['primitive:read_file', 'service:redactor'] },
      deps: { redactor: RedactorToken, again: RedactorToken, taint: optional(TaintToken), judge: lookup(JudgeToken) },
      register: () => undefined,
    });
    expect(plugin.manifest.requires).toEqual(['primitive:read_file', 'service:redactor']);
    const derived = definePlugin({ manifest, deps: { redactor: RedactorToken }, register: (_ctx, { redactor }) => void expectTypeOf(redactor).toEqualTypeOf<Redactor>() });
    expect(derived.manifest.requires).toEqual(['service:redactor']);
  });

  it('refuses a dependency whose token needs a permission the manifest does not list, naming both', () => {
    const envelope = refusal(() => definePlugin({ manifest, deps: { keychain: optional(KeychainToken) }, register: () => undefined }));
    expect(envelope).toMatchObject({
      category: 'VALIDATION_FAILED',
      code: PluginApiCodes.PLUGIN_DEPENDENCY_PERMISSION_MISSING,
      plugin: 'p',
      operation: 'deps.keychain',
      failed_parameter: '$.permissions',
      expected: 'secrets.reveal',
    });
    expect(envelope.remediation).toContain('"keychain" service');
  });

  it('refuses a dependency that is not a token (a plugin written without types)', () => {
    const envelope = refusal(() => definePlugin({ manifest, deps: { keychain: 'keychain' } as never, register: () => undefined }));
    expect(envelope).toMatchObject({ code: PluginApiCodes.PLUGIN_DEPENDENCY_INVALID, failed_parameter: '$.deps' });
  });

  it('describes dependencies by shape, so a token from another copy of plugin-api is understood', () => {
    const copy = { key: Symbol.for('nodwyn.token.taint'), name: 'taint' };
    expect(describeDependencies({ a: copy, b: { mode: 'optional', token: copy }, c: lookup(createToken('x')) })).toEqual([
      { name: 'a', token: copy, mode: 'required' },
      { name: 'b', token: copy, mode: 'optional' },
      { name: 'c', token: expect.objectContaining({ name: 'x' }), mode: 'lookup' },
    ]);
    expect(describeDependencies(undefined)).toEqual([]);
    expect(describeDependencies([TaintToken])).toBeUndefined();
    expect(describeDependencies({ a: { mode: 'later', token: copy } })).toBeUndefined();
  });
});
