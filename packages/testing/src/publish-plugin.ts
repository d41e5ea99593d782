import { z } from '@nodwyn/plugin-api';
import { testPlugin } from './start-test-kernel.js';

/** An irreversible `publish` tool, for the kernel's hard trigger (plans); it records what it published. */
export function publishPlugin(published: string[] = []) {
  return testPlugin('publish-tool', ['primitive:publish'], (ctx) => {
    ctx.primitives.register({
      name: 'publish',
      description: 'Publishes a release; cannot be undone.',
      input: z.object({ version: z.string() }).strict(),
      tier: 'irreversible',
      visibility: 'model',
      handler: (args) => {
        published.push(args.version);
        return { content: `published ${args.version}` };
      },
    });
  });
}
