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
// The web console's bundle (plugins/frontend-web/dist/web, built by vite from plugins/frontend-web/app when
// that app is there) is copied to apps/cli/dist/web, where `nodwyn serve` finds it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishOnlyZodLocales } from './zod-locales.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outdir = join(root, 'apps', 'cli', 'dist');
rmSync(outdir, { recursive: true, force: true });

const started = Date.now();
const webApp = join(root, 'plugins', 'frontend-web', 'app');
if (existsSync(join(webApp, 'vite.config.ts'))) {
  const vite = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: webApp, stdio: 'inherit' });
  if (vite.status !== 0) {
    console.error(`the web console's vite build failed (exit ${vite.status ?? vite.signal})`);
    process.exit(1);
  }
}
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
  plugins: [englishOnlyZodLocales(root)],
  logLevel: 'warning',
});
const webBundle = join(root, 'plugins', 'frontend-web', 'dist', 'web');
if (existsSync(join(webBundle, 'index.html'))) cpSync(webBundle, join(outdir, 'web'), { recursive: true });
console.log(`built apps/cli/dist/nodwyn.mjs${existsSync(join(outdir, 'web')) ? ' and copied the web console to dist/web' : ''} in ${Date.now() - started} ms`);
