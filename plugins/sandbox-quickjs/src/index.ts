import { definePlugin } from '@nodwyn/plugin-api';
import { sandboxRunnerToken } from '@nodwyn/plugin-api/sandbox';
import { PLUGIN_NAME } from './errors.js';
import { createQuickjsRunner } from './quickjs-runner.js';

/**
 * The default sandbox runner: model-written code runs in QuickJS compiled to WebAssembly, whose only
 * ways out are the `nodwyn` door's primitives through the guard (read_file, write_file, http_request).
 */
export const sandboxQuickjsPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Its section shapes the sandbox: only the person's own config sets it.
    userOnlyConfig: true,
    description: 'The default sandbox runner: QuickJS in WebAssembly with no ambient authority; its only doors out are kernel primitives through the guard.',
    provides: ['service:sandbox.quickjs'],
    requires: [],
    permissions: ['fs.read'],
  },
  register(ctx) {
    // One runner per load: its engine and warm sandboxes go away with the plugin, collected with it.
    ctx.services.provide(sandboxRunnerToken('quickjs'), createQuickjsRunner());
  },
});

export { createQuickjsRunner, type QuickjsRunner, type QuickjsRunnerOptions } from './quickjs-runner.js';
export { SandboxErrorCode } from './errors.js';
