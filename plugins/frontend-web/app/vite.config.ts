import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// The console is served under a strict Content-Security-Policy (script-src 'self', style-src 'self'), so
// the build must emit no inline script or style: no module-preload polyfill, CSS as files.
export default defineConfig({
  root: here,
  base: '/',
  resolve: { conditions: ['@nodwyn/source', 'browser', 'module', 'import', 'default'] },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    cssCodeSplit: true,
    sourcemap: false,
  },
});
