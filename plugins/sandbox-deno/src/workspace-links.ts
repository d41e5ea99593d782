import { readdirSync, type Dirent } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { denoError } from './errors.js';

/** What a run's Deno flags must withhold besides `.nodwyn/`, because of symlinks in the workspace. */
export interface LinkDenials {
  readonly denyRead: readonly string[];
  readonly denyWrite: readonly string[];
}

/** How to scan. */
export interface LinkScanOptions {
  /** The run may write: every symlink is frozen, not only those that point out. */
  readonly write: boolean;
  /** Real paths no run may reach (nodwyn's data directory); `.nodwyn/` is always one. */
  readonly forbidden: readonly string[];
  /** Most directory entries looked at before the run is refused (default 200 000). */
  readonly maxEntries?: number;
  /** Most symlinks turned into flags before the run is refused (default 2 000; each is one argument). */
  readonly maxLinks?: number;
}

const NODWYN_DIR = /^\.nodwyn$/i;
/**
 * Folders listed between two turns of the event loop. Listing synchronously is ~3× faster than
 * fs.promises here (22 000 entries: ~40 ms against ~120 ms, measured); yielding keeps the host
 * responsive on a large workspace.
 */
const DIRS_PER_TURN = 256;

/** True when `path` is `root` or below it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** True when `real` is inside `root/.nodwyn` (any case) or one of `forbidden`. */
export function isReserved(root: string, real: string, forbidden: readonly string[]): boolean {
  const first = relative(root, real).split(sep)[0] ?? '';
  return (isInside(root, real) && NODWYN_DIR.test(first)) || forbidden.some((dir) => isInside(dir, real));
}

/**
 * Finds the symlinks Deno's path-based permissions cannot contain. Deno checks a path as spelled, never
 * the target of a symlink that existed before the run (its documented model, measured on 2.9.6: a link in
 * the workspace to /etc/hostname read fine under `--allow-read=<workspace>`). Code cannot make new links
 * (that needs unscoped read and write), so the links found now are all there will be:
 * - read only: a link whose target is outside the workspace, under `.nodwyn/`, dangling, or a folder that
 *   holds such a link or `.nodwyn/` is denied;
 * - with write: renaming a link or one of its folders changes what it reaches (a relative `../x` moved
 *   one level up points out; a harmless link moved next to a denied one chains to it), so every link is
 *   denied for reading and writing and every folder above one is denied for writing, which makes each
 *   link stay where it is and every path through a link refused.
 * `.nodwyn/` and the forbidden folders are not entered: they are denied whole.
 *
 * @throws EnvelopeError SANDBOX_WORKSPACE_TOO_LARGE past `maxEntries` entries or `maxLinks` links
 */
export async function scanWorkspaceLinks(root: string, options: LinkScanOptions): Promise<LinkDenials> {
  const maxEntries = options.maxEntries ?? 200_000;
  const maxLinks = options.maxLinks ?? 2_000;
  const whole = [join(root, '.nodwyn'), ...options.forbidden];
  const links: string[] = [];
  let entries = 0;
  const pending = [root];
  for (let listed = 1; pending.length > 0; listed++) {
    const dir = pending.pop() as string;
    const listing = list(dir);
    entries += listing.length;
    if (entries > maxEntries) throw tooLarge(`more than ${maxEntries} entries`);
    for (const entry of listing) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) links.push(path);
      else if (entry.isDirectory() && !deniedWhole(whole, path)) pending.push(path);
    }
    if (links.length > maxLinks) throw tooLarge(`more than ${maxLinks} symlinks`);
    if (listed % DIRS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (options.write) return frozen(root, links);
  return { denyRead: await escaping(root, links, options.forbidden), denyWrite: [] };
}

/**
 * The folders whose deny flags cover all they hold, so nothing inside needs looking at. The walk never
 * follows a link, so its paths are real and plain string prefixes decide.
 */
function deniedWhole(reserved: readonly string[], path: string): boolean {
  return reserved.some((dir) => path === dir || path.startsWith(`${dir}${sep}`));
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // A folder that vanished or cannot be listed holds nothing the run could reach through it either.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return [];
    throw error;
  }
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    // Dangling or looping: what it would reach is unknown (and a write through it lands at the target).
    return undefined;
  }
}

/**
 * The links a read-only run must not follow: those that point out of the workspace, into a reserved
 * folder, nowhere, or to a folder that holds one of those (or `.nodwyn/`), because Deno would check the
 * new spelling through that folder and not the denied one; repeated until nothing changes.
 */
async function escaping(root: string, links: readonly string[], forbidden: readonly string[]): Promise<string[]> {
  const targets = await Promise.all(links.map(async (link) => ({ link, real: await realOrUndefined(link) })));
  const hazards = [join(root, '.nodwyn'), ...forbidden];
  const denied = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const { link, real } of targets) {
      if (denied.has(link)) continue;
      const leads = real === undefined || !isInside(root, real) || isReserved(root, real, forbidden) || hazards.some((hazard) => isInside(real, hazard));
      if (!leads) continue;
      denied.add(link);
      hazards.push(link);
      changed = true;
    }
  }
  return [...denied].sort();
}

function frozen(root: string, links: readonly string[]): LinkDenials {
  const folders = new Set<string>();
  for (const link of links) {
    for (let dir = dirname(link); dir !== root && isInside(root, dir); dir = dirname(dir)) folders.add(dir);
  }
  const sorted = [...links].sort();
  return { denyRead: sorted, denyWrite: [...sorted, ...[...folders].sort()] };
}

function tooLarge(what: string) {
  return denoError('SANDBOX_WORKSPACE_TOO_LARGE', {
    received_value: what,
    remediation: `The workspace has ${what}, more than the Deno runner checks before a run with file grants (Deno's permissions do not follow symlinks, so each must be found first); run the capability without read and write grants, or use the quickjs runner.`,
  });
}
