import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './npm.js';

// What docs/publishing.md says every package declares, checked for all of them from their sources, so a
// new import or entry point cannot ship a package that fails to install or resolve.

interface Manifest {
  name: string;
  private?: boolean;
  files?: string[];
  engines?: { node?: string };
  publishConfig?: { access?: string };
  license?: string;
  repository?: { directory?: string };
  exports?: Record<string, Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const projects = ['packages', 'plugins', 'apps', 'examples'].flatMap((group) => readdirSync(join(REPO, group)).map((name) => `${group}/${name}`));
const manifest = (dir: string) => JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')) as Manifest;
const libraries = projects.filter((dir) => !manifest(dir).private && dir !== 'apps/cli');

// Sources that hold other packages' files as text (the generator's templates, which import nothing), not imports.
const TEXT_SOURCES = new Set([join(REPO, 'packages', 'plugin-templates', 'src')]);

function sources(dir: string): string[] {
  if (TEXT_SOURCES.has(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The packages a project's non-test sources import (the package part of each bare specifier). */
function imported(dir: string): string[] {
  const names = new Set<string>();
  for (const file of sources(join(REPO, dir, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]*)?)['"]/g)) {
      const specifier = match[1]!;
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      // `std` is the QuickJS sandbox's own module, imported by code that runs inside it.
      if (specifier.startsWith('node:') || builtinModules.includes(name) || name === 'std') continue;
      names.add(name);
    }
  }
  return [...names].sort();
}

describe.each(libraries)('%s', (dir) => {
  const pkg = manifest(dir);

  it('declares files, engines, publishConfig, license and repository', () => {
    expect(pkg.files).toEqual(expect.arrayContaining(['dist/src', '!dist/src/**/*.test.*', 'README.md']));
    expect(existsSync(join(REPO, dir, 'README.md'))).toBe(true);
    expect([pkg.engines?.node, pkg.publishConfig?.access, pkg.license, pkg.repository?.directory]).toEqual(['>=20.19.0', 'public', 'MIT', dir]);
  });

  it('exports each entry from dist/src, with its source first for the monorepo', () => {
    for (const [entry, conditions] of Object.entries(pkg.exports ?? {})) {
      expect(Object.keys(conditions), entry).toEqual(['@nodwyn/source', 'types', 'default']);
      const source = conditions['@nodwyn/source']!;
      expect(existsSync(join(REPO, dir, source)), source).toBe(true);
      const built = source.replace(/^\.\/src\//, './dist/src/').replace(/\.tsx?$/, '');
      expect([conditions.types, conditions.default]).toEqual([`${built}.d.ts`, `${built}.js`]);
    }
  });

  it('depends on every package its sources import', () => {
    const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }));
    expect(imported(dir).filter((name) => !declared.has(name))).toEqual([]);
  });
});
