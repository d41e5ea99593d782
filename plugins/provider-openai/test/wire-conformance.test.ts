import { describeProviderWireConformance } from '@nodwyn/testing';
import { describe } from 'vitest';
import { factory } from './plugin-context.js';

describe('openai-compatible, --api chat (the default)', () => {
  describeProviderWireConformance({
    dialect: 'openai-chat',
    create: async (baseUrl, options) => (await factory('openai-compatible')).create({ ...options, base_url: baseUrl, model: 'wire-model' }),
  });
});

describe('openai-compatible, --api responses', () => {
  describeProviderWireConformance({
    dialect: 'openai-responses',
    create: async (baseUrl, options) => (await factory('openai-compatible')).create({ ...options, base_url: baseUrl, model: 'wire-model', api: 'responses' }),
  });
});

describe('openai (its own request shape: max_completion_tokens), --api chat, pointed at loopback', () => {
  describeProviderWireConformance({
    dialect: 'openai-chat',
    create: async (baseUrl, options) => (await factory('openai')).create({ ...options, base_url: baseUrl, max_tokens: '512' }),
  });
});
