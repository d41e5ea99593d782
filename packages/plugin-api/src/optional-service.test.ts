import { describe, expect, it } from 'vitest';
import type { PluginContext } from './context.js';
import { EnvelopeError, isEnvelopeError } from './envelope.js';
import { optionalService } from './optional-service.js';
import { TaintToken, type TaintTracker } from './services.js';

describe('optionalService', () => {
  const services = (get: () => unknown) => ({ get }) as unknown as Pick<PluginContext['services'], 'get'>;

  it('is undefined when no plugin provides the service', () => {
    const missing = () => {
      throw new EnvelopeError({ category: 'NOT_FOUND', code: 'SERVICE_NOT_FOUND', remediation: 'none' });
    };
    expect(optionalService(services(missing), TaintToken)).toBeUndefined();
  });

  it('passes any other failure on', () => {
    const denied = () => {
      throw new EnvelopeError({ category: 'PERMISSION_DENIED', code: 'PLUGIN_PERMISSION_UNDECLARED', remediation: 'x' });
    };
    let error: unknown;
    try {
      optionalService(services(denied), TaintToken);
    } catch (caught) {
      error = caught;
    }
    expect(isEnvelopeError(error) && error.envelope.code).toBe('PLUGIN_PERMISSION_UNDECLARED');
  });

  it('asks for the token it is given', () => {
    const tracker = {} as TaintTracker;
    let asked: unknown;
    expect(
      optionalService(
        services(((token: unknown) => {
          asked = token;
          return tracker;
        }) as () => unknown),
        TaintToken,
      ),
    ).toBe(tracker);
    expect(asked).toBe(TaintToken);
  });
});
