import { definePlugin } from '@nodwyn/plugin-api';
import { allowsInsecureHttp } from '@nodwyn/plugin-api/transport';
import { PLUGIN_NAME } from './errors.js';
import { openAiCompatibleFactory, openAiFactory } from './openai-factories.js';

/**
 * Model providers on the official openai SDK: `openai` (OpenAI's API) and `openai-compatible` (any server
 * that speaks it), each with the Chat Completions or the Responses API, over the kernel's guarded fetch.
 */
export const providerOpenAiPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'Model providers for the OpenAI Chat Completions and Responses APIs and any OpenAI-compatible server, on the official openai SDK.',
    provides: ['provider:openai', 'provider:openai-compatible'],
    requires: [],
    permissions: ['net'],
  },
  register(ctx) {
    const host = { settings: ctx.settings, allowInsecureHttp: allowsInsecureHttp(ctx.settings) };
    ctx.providers.register(openAiFactory(host));
    ctx.providers.register(openAiCompatibleFactory(host));
  },
});
