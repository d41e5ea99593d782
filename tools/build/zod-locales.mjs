// zod re-exports its ~60 message locales through `z.locales`, which defeats tree shaking and more than
// doubles the code a bundle must compile at start. nodwyn's envelopes are English, so bundles keep `en`.
import { join } from 'node:path';

/** An esbuild plugin that resolves zod's locale index to English alone; `root` is where node_modules is. */
export function englishOnlyZodLocales(root) {
  return {
    name: 'english-only-zod-locales',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
        args.importer.includes(`${join('node_modules', 'zod')}`) ? { path: 'zod-locales-en', namespace: 'nodwyn' } : undefined,
      );
      pluginBuild.onLoad({ filter: /^zod-locales-en$/, namespace: 'nodwyn' }, () => ({
        contents: "export { default as en } from 'zod/v4/locales/en.js';",
        resolveDir: root,
      }));
    },
  };
}
