import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from './call-context.js';

/**
 * A workspace that exercises .gitignore handling: root rules with a negation, a nested .gitignore, an
 * anchored nested rule, a .git directory, and symlinks inside and out. Every file holds "needle".
 * Visible files: .github/workflows/ci.yml, .gitignore, pkg/.gitignore, pkg/sub/local-only/w.ts, src/a.ts,
 * src/b.js, src/gen/.gitignore, src/gen/y.ts, src/keep.log (plus the symlinks inlink.ts and outlink).
 */
export function ignoreFixture(): string {
  const ws = tempDir();
  const outside = tempDir();
  writeTree(outside, { 'secret.ts': 'needle outside\n' });
  writeTree(ws, {
    '.gitignore': 'node_modules/\n*.log\n!keep.log\nbuild\n',
    '.git/HEAD': 'needle in git\n',
    'node_modules/dep/index.js': 'needle dep\n',
    'build/out.js': 'needle build\n',
    '.github/workflows/ci.yml': 'run: needle ci\n',
    'src/a.ts': 'const x = 1;\nconst needle = 1;\n',
    'src/b.js': 'Needle here\n',
    'src/debug.log': 'needle log\n',
    'src/keep.log': 'needle keep\n',
    'src/gen/.gitignore': '*.gen.ts\n',
    'src/gen/x.gen.ts': 'needle generated\n',
    'src/gen/y.ts': 'needle y\n',
    'pkg/.gitignore': '/local-only\n',
    'pkg/local-only/z.ts': 'needle z\n',
    'pkg/sub/local-only/w.ts': 'needle w\n',
  });
  symlinkSync(outside, join(ws, 'outlink'));
  symlinkSync(join(ws, 'src/a.ts'), join(ws, 'inlink.ts'));
  return ws;
}
