import { EnvelopeError } from '@nodwyn/plugin-api';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { EmbeddedDistribution } from '../embedded-distribution.js';
import { EMBEDDED_DISTRIBUTION } from '../embedded-distribution.js';
import { CliCodes } from '../errors.js';
import { HOST_PLUGIN_API, HOST_PLUGIN_API_MODULES } from '../host-plugin-api.js';
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
    const result = await build({
      write: false,
      stdin: { contents: entryModule(cli), resolveDir: cli.dir, loader: 'js' },
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      minify: true,
      // Not keepNames again: the CLI's build already fixed every function's name with __name, which the
      // bundle keeps; wrapping them twice would make the file half as large again.
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
            // A third-party plugin's peer dependency is the host's copy, which the CLI shares at load.
            b.onResolve({ filter: /^@nodwyn\/plugin-api(\/.*)?$/ }, (args) => (args.path in HOST_PLUGIN_API_MODULES ? { path: args.path, namespace: 'host-plugin-api' } : undefined));
            b.onLoad({ filter: /.*/, namespace: 'host-plugin-api' }, (args) => ({ contents: hostModule(args.path), loader: 'js' }));
          },
        },
      ],
    });
    writeFileSync(outfile, asciiOnly(result.outputFiles[0]!.text));
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

/** A module whose exports are those of the host's copy of `specifier`, read when a plugin first loads. */
function hostModule(specifier: string): string {
  const names = Object.keys(HOST_PLUGIN_API_MODULES[specifier]!).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  return [
    `const host = globalThis[Symbol.for(${JSON.stringify(HOST_PLUGIN_API.description)})][${JSON.stringify(specifier)}];`,
    ...names.map((name) => (name === 'default' ? 'export default host.default;' : `export const ${name} = host.${name};`)),
  ].join('\n');
}

/**
 * `text` with every character past ASCII written as a `\\u` escape. esbuild leaves a few in regular
 * expression literals; one is enough to send Node's decoding of the whole file down its slow path, which
 * costs more than the rest of a `--version`. In strings, identifiers and regular expressions the escape
 * means the same character.
 */
function asciiOnly(text: string): string {
  return text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The bundle's entry. As bin/nodwyn.mjs does, `--version` is answered before the command tree is loaded:
 * imported dynamically, the CLI's modules are wrapped in functions that run only then.
 */
function entryModule(cli: CliBuild): string {
  return [
    "import 'nodwyn:embedded';",
    `import { VERSION } from ${JSON.stringify(join(cli.dir, 'version.mjs'))};`,
    'const args = process.argv.slice(2);',
    "if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) process.stdout.write(`${VERSION}\\n`);",
    `else await import(${JSON.stringify(join(cli.dir, 'nodwyn.mjs'))});`,
  ].join('\n');
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
