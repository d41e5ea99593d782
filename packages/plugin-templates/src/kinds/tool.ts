import { header, manifestSource, type KindTemplate } from './kind-template.js';

/** A model tool with a zod schema: counts the words of a text. */
export const toolTemplate: KindTemplate = {
  summary: (n) => `One model tool, ${n.snake}, that counts the words of a text.`,
  index: (n) => `${header("import { definePlugin, definePrimitive, z } from '@nodwyn/plugin-api';", n)}
/** Counts the words of a text: whitespace-separated runs of characters. */
export function countWords(text: string): number {
  return text.split(/\\s+/).filter((word) => word !== '').length;
}

/** Contributes the model tool \`${n.snake}\`; the guard checks its arguments against the zod schema. */
export const ${n.camel}Plugin = definePlugin({
${manifestSource(toolTemplate.summary(n), [`primitive:${n.snake}`])}
  register(ctx) {
    ctx.primitives.register(
      definePrimitive({
        name: '${n.snake}',
        description: 'Counts the words of a text (runs of characters between whitespace) and answers with the number.',
        input: z.object({ text: z.string().max(100_000).describe('The text whose words to count.') }).strict(),
        tier: 'read',
        visibility: 'model',
        handler: ({ text }) => ({ content: String(countWords(text)) }),
      }),
    );
  },
});

export default ${n.camel}Plugin;
`,
  test: (n) => `import { describePrimitivePluginConformance, startTestKernel } from '@nodwyn/testing';
import { describe, expect, it } from 'vitest';
import { ${n.camel}Plugin } from './index.js';

describePrimitivePluginConformance(${n.camel}Plugin);

describe('${n.snake}', () => {
  it('counts words through the guard', async () => {
    const t = await startTestKernel({ plugins: [${n.camel}Plugin] });
    try {
      expect(await t.apply('${n.snake}', { text: ' one two\\tthree\\n' })).toMatchObject({ ok: true, content: '3' });
    } finally {
      await t.stop();
    }
  });
});
`,
};
