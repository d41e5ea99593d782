import { createHash } from 'node:crypto';

/**
 * One entry of a repository's `.nodwyn/` folder. `file` carries the bytes of a regular file;
 * `unreviewable` stands for anything nodwyn will not follow or read (a symlink, a device, a file past the
 * size limit) and carries a description of it, so that it still changes the hash but can never be
 * mistaken for a file with the same text.
 */
export interface FolderEntry {
  /** Relative to `.nodwyn/`, with `/` separators on every platform. */
  readonly path: string;
  readonly kind: 'file' | 'unreviewable';
  readonly data: Buffer;
}

/**
 * The content hash trust is pinned to: sha256 over every entry, sorted by path, each framed with its
 * kind and the byte lengths of its path and data. The framing makes the hash path-sensitive (a rename
 * changes it) and boundary-sensitive (moving bytes from one file to the next changes it); sorting makes
 * it independent of the order the file system lists a folder in.
 */
export function folderHash(entries: readonly FolderEntry[]): string {
  const hash = createHash('sha256');
  for (const entry of sortedByPath(entries)) {
    const path = Buffer.from(entry.path, 'utf8');
    hash.update(`${entry.kind}\0${path.length}\0`);
    hash.update(path);
    hash.update(`\0${entry.data.length}\0`);
    hash.update(entry.data);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The hash of one entry, kept per file in the trust store so a change can be named, not only noticed. */
export function entryHash(entry: FolderEntry): string {
  return folderHash([{ ...entry, path: '' }]);
}

/** Entries by path in code-unit order: the same on every machine, unlike a locale-aware sort. */
export function sortedByPath<T extends { readonly path: string }>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
