import { definePlugin, z, API_VERSION } from '@nodwyn/plugin-api';

/** A read-tier `echo` tool for kernel and loop tests: returns its `text`. */
export function echoPlugin() {
  return definePlugin({
    manifest: { name: 'echo', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['primitive:echo'] },
    register(ctx) {
      ctx.primitives.register({
        name: 'echo',
        description: 'Returns the text it is given.',
        input: z.object({ text: z.string() }).strict(),
        tier: 'read',
        visibility: 'model',
        handler: (args) => ({ content: args.text }),
      });
    },
  });
}
