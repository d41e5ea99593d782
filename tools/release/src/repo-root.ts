import { fileURLToPath } from 'node:url';

/** The repository's root folder (this file is tools/release/src/repo-root.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
