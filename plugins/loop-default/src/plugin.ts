import { definePlugin, isEnvelopeError, JudgeToken, type Judge, type PluginContext } from '@nodwyn/plugin-api';
import { createDefaultLoop } from './default-loop.js';
import { PLUGIN_NAME } from './errors.js';

/** The judge when a plugin provides one; its absence is normal (plans go to the person), any other failure is not. */
function optionalJudge(ctx: PluginContext): Judge | undefined {
  try {
    return ctx.services.get(JudgeToken);
  } catch (error) {
    if (isEnvelopeError(error) && error.envelope.code === 'SERVICE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Contributes the `default` loop strategy (`loop:default`), which uses the judge when one is loaded. */
export const loopDefaultPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The default agent loop: call the model, run its tool calls, repeat until it answers; plans first when the judge or an irreversible call asks for one.',
    provides: ['loop:default'],
  },
  register(ctx) {
    // Looked up per turn: the judge is optional and may register after this plugin.
    ctx.loops.register(createDefaultLoop(() => optionalJudge(ctx)));
  },
});
