import { definePlugin } from '@nodwyn/plugin-api';
import { PLUGIN_NAME } from './errors.js';
import { replayProviderFactory } from './replay-provider.js';
import { scriptedProviderFactory } from './scripted-provider.js';

/**
 * A deterministic model provider for tests, demos and reproductions: `scripted` plays a JSON script,
 * `replay` plays the assistant messages of a logged session.
 */
export const providerScriptedPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'A deterministic model provider that plays a JSON script, and replay of a logged session.',
    provides: ['provider:scripted', 'provider:replay'],
    permissions: ['fs.read', 'log.read'],
  },
  register(ctx) {
    ctx.providers.register(scriptedProviderFactory());
    ctx.providers.register(replayProviderFactory(ctx.log));
  },
});
