import { definePlugin, definePrimitive, z } from '@nodwyn/plugin-api';

/** The package name, which is also the plugin's name in its manifest. */
export const PLUGIN = '@nodwyn/plugin-openapi';

/** Counts the words of a text: whitespace-separated runs of characters. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** Contributes the model tool `openapi`; the guard checks its arguments against the zod schema. */
export const openapiPlugin = definePlugin({
  manifest: {
    name: PLUGIN,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'One model tool, openapi, that counts the words of a text.',
    provides: ['primitive:openapi'],
  },
  register(ctx) {
    ctx.primitives.register(
      definePrimitive({
        name: 'openapi',
        description: 'Counts the words of a text (runs of characters between whitespace) and answers with the number.',
        input: z.object({ text: z.string().max(100_000).describe('The text whose words to count.') }).strict(),
        tier: 'read',
        visibility: 'model',
        handler: ({ text }) => ({ content: String(countWords(text)) }),
      }),
    );
  },
});

export default openapiPlugin;
