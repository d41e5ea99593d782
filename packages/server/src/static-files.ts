import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';

/** Content types of the files a Vite build writes. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file to send. */
export interface StaticFile {
  readonly body: Buffer;
  readonly contentType: string;
}

/** Asset names: one path segment of safe characters (Vite's hashed names), nothing that climbs out. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/**
 * The web console's bundle in `root`: `index.html` and `assets/<file>`, nothing else. A name is one
 * segment of safe characters, checked after percent-decoding (no `..`, no slash), and the file's real
 * path must stay inside the assets folder (a symlink out of it is not followed). `undefined` when there
 * is no such file.
 */
export class StaticFiles {
  constructor(private readonly root: string | undefined) {}

  /** `index.html`. */
  index(): Promise<StaticFile | undefined> {
    return this.root === undefined ? Promise.resolve(undefined) : this.read(this.root, 'index.html');
  }

  /** `assets/<name>` (`name` as it came in the URL, still percent-encoded). */
  asset(encodedName: string): Promise<StaticFile | undefined> {
    let name: string;
    try {
      name = decodeURIComponent(encodedName);
    } catch {
      return Promise.resolve(undefined);
    }
    if (this.root === undefined || !ASSET_NAME.test(name) || name.includes('..')) return Promise.resolve(undefined);
    return this.read(join(this.root, 'assets'), name);
  }

  private async read(folder: string, name: string): Promise<StaticFile | undefined> {
    try {
      const base = await realpath(folder);
      const file = await realpath(join(base, name));
      if (!file.startsWith(base + sep) || !(await stat(file)).isFile()) return undefined;
      return { body: await readFile(file), contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream' };
    } catch (error) {
      if (['ENOENT', 'ENOTDIR', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
      throw error;
    }
  }
}
