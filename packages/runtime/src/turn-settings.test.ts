import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from './config.js';
import { providerIdFrom } from './turn-settings.js';

const anthropicByDefault = ConfigSchema.parse({ provider: { default: 'anthropic' } });

describe('providerIdFrom', () => {
  it('takes the flag over [provider] default, and the default over a script', () => {
    expect(providerIdFrom(anthropicByDefault, { provider: 'openai', script: 's.json' })).toBe('openai');
    expect(providerIdFrom(anthropicByDefault, { script: 's.json' })).toBe('anthropic');
  });

  it('picks the scripted provider for a script alone', () => {
    expect(providerIdFrom({}, { script: 's.json' })).toBe('scripted');
  });

  it('is PROVIDER_NOT_CONFIGURED with nothing to go on, naming every fix', () => {
    let thrown: unknown;
    try {
      providerIdFrom(ConfigSchema.parse({ provider: { scripted: { script: 's.json' } } }));
    } catch (error) {
      thrown = error;
    }
    if (!isEnvelopeError(thrown)) throw new Error('expected an envelope');
    const envelope = thrown.envelope;
    expect([envelope.category, envelope.code]).toEqual(['PRECONDITION_FAILED', 'PROVIDER_NOT_CONFIGURED']);
    for (const fix of ['nodwyn setup --provider', 'nodwyn secret add', 'nodwyn bind add', '[provider] default', '--script FILE']) expect(envelope.remediation).toContain(fix);
  });
});
