import { header, manifestSource, type KindTemplate } from './kind-template.js';

/** A loop strategy: call the model, run its tool calls, repeat until it answers. */
export const loopTemplate: KindTemplate = {
  summary: (n) => `A loop strategy, ${n.base}: call the model, run its tool calls, repeat until it answers without one.`,
  index: (n) => `${header("import { definePlugin, type LoopStrategy } from '@nodwyn/plugin-api';", n)}
/**
 * The \`${n.base}\` loop. Budgets, the progress guard and cancellation are the turn floor's: when the turn
 * must stop, \`callModel\` or \`runToolCalls\` throws, and the error is left to reach the kernel.
 */
export const ${n.camel}Loop: LoopStrategy = {
  id: '${n.base}',
  description: 'Calls the model, runs the tool calls it made, and repeats until it answers without a tool call.',
  async run(floor) {
    for (;;) {
      const message = await floor.callModel();
      if (message.toolCalls.length === 0) return { answer: message.text };
      await floor.runToolCalls(message);
    }
  },
};

/** Contributes the loop strategy \`${n.base}\`. */
export const ${n.camel}Plugin = definePlugin({
${manifestSource(loopTemplate.summary(n), [`loop:${n.base}`])}
  register(ctx) {
    ctx.loops.register(${n.camel}Loop);
  },
});

export default ${n.camel}Plugin;
`,
  test: (n) => `import { describeLoopConformance } from '@nodwyn/testing';
import { ${n.camel}Plugin } from './index.js';

describeLoopConformance(${n.camel}Plugin, '${n.base}');
`,
};
