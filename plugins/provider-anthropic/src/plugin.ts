import { definePlugin } from '@nodwyn/plugin-api';
import { allowsInsecureHttp } from '@nodwyn/plugin-api/transport';
import { anthropicProviderFactory } from './anthropic-factory.js';
import { PLUGIN_NAME } from './errors.js';

/** Claude through the Anthropic Messages API, on the official SDK with the kernel's guarded fetch. */
export const providerAnthropicPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'Model provider for the Anthropic Messages API: streaming, parallel tool use, thinking blocks, stop reasons and cache usage.',
    provides: ['provider:anthropic'],
    requires: [],
    permissions: ['net'],
  },
  register(ctx) {
    ctx.providers.register(anthropicProviderFactory({ settings: ctx.settings, allowInsecureHttp: allowsInsecureHttp(ctx.settings) }));
  },
});
