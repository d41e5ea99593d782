import { createHash } from 'node:crypto';
import { findPackageFolder } from '@nodwyn/plugin-host';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { folderHash, sortedByPath, type FolderEntry } from './trust-hash.js';

/** A third-party plugin as installed: its folder, version and the files its hash covers. */
export interface InstalledPlugin {
  readonly package: string;
  /** The real path of the package's folder. */
  readonly folder: string;
  /** `version` of its package.json ('?' when it has none). */
  readonly version: string;
  /** Every file the plugin runs with (see {@link installedPlugin}), paths relative to `folder`. */
  readonly files: readonly FolderEntry[];
  /** {@link folderHash} over `files`: what the trust ledger pins. */
  readonly hash: string;
}

/**
 * Reads what a third-party plugin runs with, for the trust ledger (docs/plugin-authoring.md, "Trust
 * ledger"): every file of its package folder, nested `node_modules` included, plus the folder of each
 * of its `dependencies` and `optionalDependencies` (transitively) that npm hoisted next to it, under
 * `node_modules/<dep>/…`. A symlink is pinned by its target, never followed. A peer dependency is the
 * host's (`@nodwyn/plugin-api`) and is not covered.
 */
export function installedPlugin(name: string, folder: string): InstalledPlugin {
  const manifest = readManifest(folder);
  const files: FolderEntry[] = [];
  const covered: string[] = [];
  const queue: { folder: string; prefix: string; manifest: Record<string, unknown> }[] = [{ folder, prefix: '', manifest }];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (covered.some((root) => next.folder === root || next.folder.startsWith(`${root}${sep}`))) continue;
    covered.push(next.folder);
    walk(next.folder, next.folder, next.prefix, files);
    for (const dep of dependencyNames(next.manifest)) {
      const found = findPackageFolder(dep, next.folder);
      if (found) queue.push({ folder: found, prefix: `node_modules/${dep}/`, manifest: readManifest(found) });
    }
  }
  const version = typeof manifest.version === 'string' ? manifest.version : '?';
  return { package: name, folder, version, files: sortedByPath(files), hash: folderHash(files) };
}

/** The hash of one file's bytes, as the ledger keeps it per path. */
export function fileHash(data: Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

function walk(root: string, dir: string, prefix: string, out: FolderEntry[]): void {
  for (const dirent of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, dirent.name);
    const path = `${prefix}${relative(root, full).split(sep).join('/')}`;
    if (dirent.isDirectory()) walk(root, full, prefix, out);
    else if (dirent.isFile()) out.push({ path, kind: 'file', data: readFileSync(full) });
    else if (dirent.isSymbolicLink()) out.push({ path, kind: 'unreviewable', data: Buffer.from(`symlink to ${readlinkSync(full)}`) });
    else out.push({ path, kind: 'unreviewable', data: Buffer.from('not a file') });
  }
}

function readManifest(folder: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch (error) {
    if (error instanceof SyntaxError) return {};
    throw error;
  }
}

function dependencyNames(manifest: Record<string, unknown>): string[] {
  const names = (table: unknown) => (typeof table === 'object' && table !== null ? Object.keys(table) : []);
  return [...new Set([...names(manifest.dependencies), ...names(manifest.optionalDependencies)])];
}
