import { definePlugin, type LoopStrategy } from '@nodwyn/plugin-api';

function giveUpLoop(limit: number): LoopStrategy {
  return {
    id: 'give-up',
    description: `Like default, but ends the turn after ${limit} rounds in a row in which every tool call failed.`,
    async run(floor) {
      let failedRounds = 0;
      for (;;) {
        const message = await floor.callModel();
        if (message.toolCalls.length === 0) return { answer: message.text };
        const results = await floor.runToolCalls(message);
        failedRounds = results.every((result) => !result.ok) ? failedRounds + 1 : 0;
        if (failedRounds === limit) {
          const codes = results.map((result) => result.envelope?.code ?? result.envelope?.category).join(', ');
          return { answer: `I stopped: every tool call failed ${limit} rounds in a row (last: ${codes}).` };
        }
      }
    },
  };
}

export const giveUpPlugin = definePlugin({
  manifest: { name: '@acme/nodwyn-plugin-loop-give-up', version: '1.0.0', apiVersion: '^0.1.0', provides: ['loop:give-up'] },
  register(ctx) {
    ctx.loops.register(giveUpLoop(2));
  },
});
