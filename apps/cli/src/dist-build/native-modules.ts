import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CliBuild } from './cli-build.js';
import type { DistPlan } from './dist-plan.js';

/** A package copied into the bundle's `node_modules`. */
export interface CopiedModule {
  readonly package: string;
  readonly version: string;
}

/**
 * What the bundle loads from `node_modules` beside it, by the plugin that needs it: the log's SQLite
 * addon always; esbuild (whose API spawns the native binary next to its own file) with capabilities;
 * the QuickJS engine (its .wasm is read from the package) with the default sandbox.
 */
const NEEDS: readonly { readonly package: string; readonly when?: string }[] = [
  { package: 'better-sqlite3' },
  { package: 'esbuild', when: '@nodwyn/plugin-capabilities' },
  { package: '@jitl/quickjs-wasmfile-release-sync', when: '@nodwyn/plugin-sandbox-quickjs' },
];

/** Only what a package runs with, for those that ship their build inputs too. */
const RUNTIME_FILES: Readonly<Record<string, readonly string[]>> = { 'better-sqlite3': ['package.json', 'LICENSE', 'lib', 'build/Release/better_sqlite3.node'] };

/** Dependencies used only to install a package (better-sqlite3 downloads its prebuilt addon with it). */
const INSTALL_ONLY = new Set(['prebuild-install']);

/**
 * Copies the packages the plan's plugins need, with their run-time dependencies (and the optional ones
 * installed here, such as esbuild's binary for this platform), from where the CLI finds them into
 * `out/node_modules`. Answers what was copied, in order.
 */
export function copyNativeModules(plan: DistPlan, cli: CliBuild, out: string): CopiedModule[] {
  const carried = new Set(plan.firstParty.map((p) => p.package));
  const copied = new Map<string, CopiedModule>();
  const queue = NEEDS.filter((need) => need.when === undefined || carried.has(need.when)).map((need) => ({ name: need.package, from: cli.dir }));
  while (queue.length > 0) {
    const { name, from } = queue.shift()!;
    if (copied.has(name)) continue;
    const folder = packageFolder(name, from);
    if (!folder) continue;
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    const target = join(out, 'node_modules', ...name.split('/'));
    for (const part of RUNTIME_FILES[name] ?? ['.']) {
      const source = join(folder, part);
      if (!existsSync(source)) continue;
      mkdirSync(dirname(join(target, part)), { recursive: true });
      cpSync(source, join(target, part), { recursive: true, dereference: true });
    }
    copied.set(name, { package: name, version: manifest.version });
    const deps = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})].filter((dep) => !INSTALL_ONLY.has(dep));
    queue.push(...deps.map((dep) => ({ name: dep, from: folder })));
  }
  return [...copied.values()];
}

/** The folder of package `name` as Node finds it from `from`; undefined when it is not installed (an optional dependency for another platform). */
function packageFolder(name: string, from: string): string | undefined {
  try {
    return dirname(createRequire(join(from, 'noop.js')).resolve(`${name}/package.json`));
  } catch {
    // Not installed here: esbuild lists a binary package per platform and only this one's is present.
    return undefined;
  }
}
