/** The version `nodwyn --version` prints; kept equal to apps/cli/package.json by a test. */
export const VERSION = '0.1.0';
