import type { LoopStrategy } from '@nodwyn/plugin-api';

/**
 * The smallest loop strategy: call the model, run its tool calls, until it answers. For tests of plugins
 * that may not depend on loop-default (plugins do not import each other).
 */
export const toolLoop: LoopStrategy = {
  id: 'test-loop',
  description: 'Calls the model and runs its tool calls until it answers.',
  async run(floor) {
    for (;;) {
      const message = await floor.callModel();
      if (message.toolCalls.length === 0) return { answer: message.text };
      await floor.runToolCalls(message);
    }
  },
};
