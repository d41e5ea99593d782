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
// The web console's bundle is built by vite from plugins/frontend-web/app into apps/cli/dist/web, where
// `nodwyn serve` finds it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishOnlyZodLocales } from './zod-locales.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const target = join(root, 'apps', 'cli', 'dist');
// Built in a folder of its own and swapped in whole at the end: test suites running in parallel each build
// the CLI once, and a daemon another suite started keeps serving its chunks and the console's assets while
// this build runs (the same sources give the same hashed names).
const outdir = mkdtempSync(join(root, 'apps', 'cli', 'dist-staging-'));

const started = Date.now();
const webApp = join(root, 'plugins', 'frontend-web', 'app');
if (existsSync(join(webApp, 'vite.config.ts'))) {
  const vite = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', join(outdir, 'web'), '--emptyOutDir'], { cwd: webApp, stdio: 'inherit' });
  if (vite.status !== 0) {
    console.error(`the web console's vite build failed (exit ${vite.status ?? vite.signal})`);
    rmSync(outdir, { recursive: true, force: true });
    process.exit(1);
  }
}
const result = await build({
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
  metafile: true,
});
writeFileSync(join(outdir, 'plugin-chunks.json'), `${JSON.stringify(pluginChunks(result.metafile), null, 2)}\n`);
swapIn(outdir, target);
console.log(`built apps/cli/dist/nodwyn.mjs${existsSync(join(target, 'web')) ? ' and the web console in dist/web' : ''} in ${Date.now() - started} ms`);

/**
 * The chunk each first-party plugin's entry (the module its distribution entry imports) was bundled into,
 * by package name. `nodwyn dist build` leaves the chunks of the plugins a distribution does not name out
 * of its bundle; code plugins share sits in other chunks, so nothing else goes with them.
 */
function pluginChunks(metafile) {
  const chunks = {};
  for (const [output, info] of Object.entries(metafile.outputs)) {
    if (!info.entryPoint || !output.endsWith('.mjs')) continue;
    const entry = resolve(info.entryPoint);
    if (!entry.startsWith(join(root, 'plugins') + '/')) continue;
    const name = JSON.parse(readFileSync(join(root, relative(root, entry).split('/').slice(0, 2).join('/'), 'package.json'), 'utf8')).name;
    chunks[name] = relative(outdir, resolve(output));
  }
  return chunks;
}

/** Puts the staged build at `target`, moving whatever is there aside first; another build may swap at once. */
function swapIn(staged, target) {
  for (let attempt = 0; ; attempt++) {
    const aside = `${staged}-old`;
    try {
      renameSync(target, aside);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(staged, target);
      rmSync(aside, { recursive: true, force: true });
      return;
    } catch (error) {
      rmSync(aside, { recursive: true, force: true });
      // Another build put its own in between: move it aside and try again.
      if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || attempt > 5) throw error;
    }
  }
}
