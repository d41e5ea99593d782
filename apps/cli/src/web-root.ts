import { webBundleDir } from '@nodwyn/plugin-frontend-web';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web console's bundle for `nodwyn serve`: `dist/web/` next to the CLI bundle (tools/build/build-cli.mjs
 * copies it there), else the web plugin's own `dist/web/` (run from source). Undefined when neither holds
 * an index.html: the daemon then answers `/` with WEB_BUNDLE_MISSING.
 */
export function webRoot(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  // The bundle's entry sits in dist/, its chunks in dist/chunks/.
  const candidates = [join(here, 'web'), join(here, '..', 'web'), webBundleDir()];
  return candidates.find((folder) => existsSync(join(folder, 'index.html')));
}
