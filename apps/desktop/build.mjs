#!/usr/bin/env node
// Bundles the desktop app's two entry points into dist/ for Electron: main.cjs (the main process) and
// preload.cjs. A sandboxed preload can require nothing but `electron`, so each is one CommonJS file with
// everything else inside; `electron` itself stays external (Electron provides it at run time).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishOnlyZodLocales } from '../../tools/build/zod-locales.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Builds main.cjs and preload.cjs into `outdir`; answers esbuild's metafile of each. */
export async function buildDesktop(outdir = join(here, 'dist')) {
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', external: ['electron'], sourcemap: true, metafile: true, logLevel: 'warning', conditions: ['@nodwyn/source'], plugins: [englishOnlyZodLocales(join(here, '..', '..'))] };
  const main = await build({ ...common, entryPoints: { main: join(here, 'src', 'main.ts') }, outdir, outExtension: { '.js': '.cjs' } });
  // The preload runs again on every page load, so it is minified.
  const preload = await build({ ...common, minify: true, entryPoints: { preload: join(here, 'src', 'preload.ts') }, outdir, outExtension: { '.js': '.cjs' } });
  return { main: main.metafile, preload: preload.metafile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `node build.mjs [outdir]`: the tests build into a temp folder.
  const outdir = process.argv[2] ?? join(here, 'dist');
  await buildDesktop(outdir);
  process.stdout.write(`built ${outdir}/main.cjs and preload.cjs\n`);
}
