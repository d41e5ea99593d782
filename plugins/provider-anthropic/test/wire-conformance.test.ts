import { describeProviderWireConformance } from '@nodwyn/testing';
import { anthropicFactory } from './plugin-context.js';

// claude-haiku-4-5: a model the SDK does not warn about on every call, so the suite's output stays clean.
describeProviderWireConformance({
  dialect: 'anthropic',
  create: async (baseUrl, options) => (await anthropicFactory()).create({ ...options, base_url: baseUrl, model: 'claude-haiku-4-5' }),
});
