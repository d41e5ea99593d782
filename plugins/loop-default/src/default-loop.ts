import type { LoopStrategy } from '@nodwyn/plugin-api';

/**
 * The default agent loop: call the model, run the tool calls it made, and repeat until it answers
 * without one. Budgets, the progress guard and cancellation are the floor's: when the turn must stop,
 * the floor throws, and the error is deliberately left to propagate to the kernel, which ends the turn
 * with it.
 */
export const defaultLoop: LoopStrategy = {
  id: 'default',
  description: 'Calls the model, runs its tool calls, and repeats until it answers without a tool call.',
  async run(floor) {
    for (;;) {
      const message = await floor.callModel();
      if (message.toolCalls.length === 0) return { answer: message.text };
      await floor.runToolCalls(message);
    }
  },
};
