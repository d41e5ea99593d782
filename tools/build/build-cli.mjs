#!/usr/bin/env node
// Bundles the `nodwyn` command from source into apps/cli/dist. One bundle with lazily loaded chunks keeps
// cold start low: `nodwyn --version` loads only the entry chunk, a run loads the kernel and plugins.
// Three dependencies stay external, installed next to the bundle (apps/cli/package.json lists them):
// - better-sqlite3, a native addon;
// - esbuild (capabilities strip types with it): its JavaScript API finds the native binary it spawns
//   from its own file (`__filename`), which a bundled ESM copy does not have (registration then fails);
// - @jitl/quickjs-wasmfile-release-sync (the default sandbox's engine): sandbox-quickjs reads the .wasm
//   from that package at run time, and the Emscripten glue must come from the very same build as the
//   .wasm (its imports and exports are minified per build), so both are loaded from the one installed copy.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outdir = join(root, 'apps', 'cli', 'dist');
rmSync(outdir, { recursive: true, force: true });
// zod re-exports its ~60 message locales through `z.locales`, which defeats tree shaking and more than
// doubles the code node must compile at start. nodwyn's envelopes are English, so the bundle keeps `en`.
const englishOnlyZodLocales = {
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

const started = Date.now();
await build({
  // version.mjs lets bin/nodwyn.mjs answer --version without loading the command tree.
  entryPoints: { nodwyn: join(root, 'apps', 'cli', 'src', 'main.ts'), version: join(root, 'apps', 'cli', 'src', 'version.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@nodwyn/source'],
  // ink imports react-devtools-core only when DEV=true; nodwyn never ships it.
  external: ['better-sqlite3', 'esbuild', '@jitl/quickjs-wasmfile-release-sync', 'react-devtools-core'],
  // React's production build: its development checks cost several times the render work per delta.
  define: { 'process.env.NODE_ENV': '"production"' },
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  // Smaller sources parse faster; cold start is mostly parse and compile.
  minify: true,
  keepNames: true,
  tsconfig: join(root, 'tsconfig.base.json'),
  // The one tsconfig above stands for every package, so it cannot carry the front ends' JSX setting.
  jsx: 'automatic',
  // CommonJS dependencies bundled into ESM still call require() for Node builtins.
  banner: { js: "import { createRequire as __nodwynRequire } from 'node:module'; const require = __nodwynRequire(import.meta.url);" },
  plugins: [englishOnlyZodLocales],
  logLevel: 'warning',
});
console.log(`built apps/cli/dist/nodwyn.mjs in ${Date.now() - started} ms`);
