import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkFiles } from './repo-walk.js';

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'nodwyn-walk-'));
  dirs.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('walkFiles', () => {
  it('honours .gitignore as git does: negation, nested files, anchored rules, ignored folders pruned', () => {
    const root = tree({
      '.gitignore': 'node_modules/\n*.log\n!keep.log\nbuild\n',
      '.git/HEAD': 'x',
      '.nodwyn/config.toml': 'x',
      'node_modules/dep/index.js': 'x',
      'build/out.js': 'x',
      'src/a.ts': 'x',
      'src/debug.log': 'x',
      'src/keep.log': 'x',
      'src/gen/.gitignore': '*.gen.ts\n',
      'src/gen/x.gen.ts': 'x',
      'src/gen/y.ts': 'x',
      'pkg/.gitignore': '/local-only\n',
      'pkg/local-only/z.ts': 'x',
      'pkg/sub/local-only/w.ts': 'x',
      'home/data.db': 'x',
    });
    symlinkSync(join(root, 'src/a.ts'), join(root, 'link.ts'));
    const files = [...walkFiles({ root, skip: [join(root, 'home')] })].sort();
    expect(files).toEqual(['.gitignore', 'pkg/.gitignore', 'pkg/sub/local-only/w.ts', 'src/a.ts', 'src/gen/.gitignore', 'src/gen/y.ts', 'src/keep.log']);
  });
});
