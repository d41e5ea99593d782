import { definePlugin } from '@nodwyn/plugin-api';
import { defaultLoop } from './default-loop.js';

/** Contributes the `default` loop strategy (`loop:default`). */
export const loopDefaultPlugin = definePlugin({
  manifest: {
    name: '@nodwyn/plugin-loop-default',
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The default agent loop: call the model, run its tool calls, repeat until it answers.',
    provides: ['loop:default'],
  },
  register(ctx) {
    ctx.loops.register(defaultLoop);
  },
});
