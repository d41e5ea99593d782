import { EnvelopeError } from '@nodwyn/plugin-api';
import { dirname, join, resolve } from 'node:path';
import type { EmbeddedDistribution } from '../embedded-distribution.js';
import { EMBEDDED_DISTRIBUTION } from '../embedded-distribution.js';
import { CliCodes } from '../errors.js';
import { FRONTEND_PACKAGES } from '../frontend-packages.js';
import { FIRST_PARTY } from '../first-party.js';
import type { CliBuild } from './cli-build.js';
import type { DistPlan } from './dist-plan.js';

/** Packages the bundle imports from `node_modules` beside it: native, or read from their own files. */
export const EXTERNAL_PACKAGES = ['better-sqlite3', 'esbuild', '@jitl/quickjs-wasmfile-release-sync', 'react-devtools-core'] as const;

/**
 * Bundles the built CLI with the plan's plugins into `outfile`, one file without chunks. A generated entry
 * first sets the embedded distribution (the file's settings and a loader per third-party plugin), then
 * imports the CLI's entry. First-party plugins the distribution does not carry have their chunk replaced
 * by an empty module, so their code is not in the file. A statically imported external becomes a
 * CommonJS `require` inside the module that imports it, so it is loaded when that module first runs, as in
 * the CLI's chunks, and not by every start.
 */
export async function bundleDistribution(plan: DistPlan, cli: CliBuild, outfile: string): Promise<void> {
  const { build } = await import('esbuild');
  const carried = new Set([...plan.firstParty.map((p) => p.package), ...plan.thirdParty.map((p) => p.package)]);
  const leftOut = new Set(
    [...FIRST_PARTY.map((p) => p.package), ...Object.values(FRONTEND_PACKAGES)].filter((name) => !carried.has(name)).map((name) => cli.pluginChunks[name]).filter((chunk) => chunk !== undefined).map((chunk) => join(cli.dir, chunk)),
  );
  const externals = new RegExp(`^(${EXTERNAL_PACKAGES.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
  try {
    await build({
      stdin: { contents: `import 'nodwyn:embedded';\nimport ${JSON.stringify(join(cli.dir, 'nodwyn.mjs'))};\n`, resolveDir: cli.dir, loader: 'js' },
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      minify: true,
      keepNames: true,
      logLevel: 'silent',
      banner: { js: "import { createRequire as __nodwynRequire } from 'node:module'; const require = __nodwynRequire(import.meta.url);" },
      plugins: [
        {
          name: 'nodwyn-distribution',
          setup(b) {
            b.onResolve({ filter: /^nodwyn:embedded$/ }, () => ({ path: 'embedded', namespace: 'nodwyn' }));
            b.onLoad({ filter: /.*/, namespace: 'nodwyn' }, () => ({ contents: embeddedModule(plan), loader: 'js', resolveDir: cli.dir }));
            b.onResolve({ filter: externals }, (args) => (args.kind === 'import-statement' && args.namespace !== 'lazy' ? { path: args.path, namespace: 'lazy' } : { path: args.path, external: true }));
            b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
            b.onResolve({ filter: /^\.\.?\// }, (args) => {
              const path = resolve(dirname(args.importer), args.path);
              return leftOut.has(path) ? { path, namespace: 'left-out' } : undefined;
            });
            b.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: 'export {};', loader: 'js' }));
            // A third-party plugin takes @nodwyn/plugin-api from the host when it has no copy of its own.
            b.onResolve({ filter: /^@nodwyn\/plugin-api(\/.*)?$/ }, async (args) => {
              if (args.pluginData === 'host') return undefined;
              const own = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'host' });
              return own.errors.length === 0 ? own : b.resolve(args.path, { kind: args.kind, resolveDir: cli.dir, pluginData: 'host' });
            });
          },
        },
      ],
    });
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors?.[0];
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new EnvelopeError(
      {
        category: 'PRECONDITION_FAILED',
        code: CliCodes.DIST_BUNDLE_FAILED,
        operation: 'dist.build',
        received_value: plan.file.path,
        remediation: `esbuild could not bundle the distribution: ${first?.text ?? String(error)}${where}. Build its third-party plugins (their package's files must be JavaScript) and install their dependencies beside them.`,
      },
      { cause: error },
    );
  }
}

/** The generated module that hands the CLI its distribution before the CLI's own code runs. */
function embeddedModule(plan: DistPlan): string {
  const { file } = plan;
  const settings: Omit<EmbeddedDistribution, 'baked'> = { name: file.name, version: file.version, frontend: file.frontend, plugins: file.plugins, config: file.config, unsafeTest: file.unsafeTest };
  const baked = plan.thirdParty.map((p) => `${JSON.stringify(p.package)}: { version: ${JSON.stringify(p.version)}, hash: ${JSON.stringify(p.hash)}, load: () => import(${JSON.stringify(p.entry)}) }`);
  return [
    // As bin/nodwyn.mjs does: Node 20's fetch would otherwise hold the exit of every run that called a model.
    "import { setFlagsFromString } from 'node:v8';",
    "setFlagsFromString('--liftoff-only');",
    `globalThis[Symbol.for(${JSON.stringify(EMBEDDED_DISTRIBUTION.description)})] = { ...${JSON.stringify(settings)}, baked: { ${baked.join(', ')} } };`,
  ].join('\n');
}
