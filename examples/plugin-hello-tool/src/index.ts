import { definePlugin, definePrimitive, z } from '@nodwyn/plugin-api';

/** The package name, which is also the plugin's name in its manifest. */
export const PLUGIN = '@acme/nodwyn-plugin-hello';

/** A third-party plugin with one model tool, `hello`, that greets whoever it is given. */
export const helloPlugin = definePlugin({
  manifest: {
    name: PLUGIN,
    version: '1.0.0',
    apiVersion: '^0.1.0',
    description: 'Greets a name: the smallest tool plugin, published and installed like any npm package.',
    provides: ['primitive:hello'],
  },
  register(ctx) {
    ctx.primitives.register(
      definePrimitive({
        name: 'hello',
        description: 'Says hello to a name.',
        input: z.object({ name: z.string().min(1).max(80).describe('Who to greet.') }).strict(),
        tier: 'read',
        visibility: 'model',
        handler: ({ name }) => ({ content: `Hello, ${name}!` }),
      }),
    );
  },
});

export default helloPlugin;
