import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the web console's built bundle is (`index.html`, `assets/`): this package's `dist/web/`, written
 * by the app's `vite build`. Found from this module's own file, whether it runs from source (`src/`)
 * or built (`dist/src/`). The folder may not exist yet (the app was not built).
 */
export function webBundleDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = basename(here) === 'src' && basename(dirname(here)) === 'dist';
  return built ? join(here, '..', 'web') : join(here, '..', 'dist', 'web');
}
