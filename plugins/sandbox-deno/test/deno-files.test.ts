import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, makeBench, type Bench } from './run-helpers.js';

/**
 * Routes to files the escape suite does not try: Deno's own APIs around the door, module imports (which
 * Deno loads without checks when they are part of the initial module graph), node: compatibility, and
 * the renames that would let a workspace symlink reach somewhere new. The process has no file permission
 * at all (its doors are served by the host, see deno-doors.test.ts), so each must fail without showing
 * the marker of what it aimed at.
 */
const OUT = 'OUTSIDE-MARKER';
const NODWYN = 'NODWYN-MARKER';
const HOME = 'HOME-MARKER';
const BOTH = { read: true, write: true };

let b: Bench;

beforeAll(() => {
  b = makeBench();
  b.file('outside/secret.txt', `${OUT}\n`);
  b.file('outside/secret.json', JSON.stringify({ token: OUT }));
  b.file('outside/module.js', `export default '${OUT}';`);
  b.file('workspace/.nodwyn/config.toml', `# ${NODWYN}\n`);
  b.file('home/nodwyn.db', HOME);
  b.file('workspace/sub/inner.txt', 'inner\n');
  symlinkSync(join(b.outside, 'secret.txt'), join(b.workspace, 'sub', 'escape-link'));
  symlinkSync(b.outside, join(b.workspace, 'escape-dir'));
  symlinkSync(b.workspace, join(b.workspace, 'root-alias'));
});

afterAll(() => b.remove());

function expectHidden(result: unknown): void {
  const text = JSON.stringify(result);
  for (const marker of [OUT, NODWYN, HOME]) expect(text).not.toContain(marker);
}

describe('Deno runner: files beyond the door stay out of reach', () => {
  const url = (path: string) => `file://${path}`;
  const reads: [string, () => string][] = [
    ['a JSON import of a file outside', () => `export default async () => (await import('${url(join(b.outside, 'secret.json'))}', { with: { type: 'json' } })).default;`],
    ['a text import of a file outside', () => `export default async () => (await import('${url(join(b.outside, 'secret.txt'))}', { with: { type: 'text' } })).default;`],
    ['a static JSON import at the top of the code', () => `import s from '${url(join(b.outside, 'secret.json'))}' with { type: 'json' };\nexport default () => s;`],
    ['a module import from outside', () => `export default async () => (await import('${url(join(b.outside, 'module.js'))}')).default;`],
    ['a text import of .nodwyn/config.toml', () => `export default async () => (await import('${url(join(b.workspace, '.nodwyn', 'config.toml'))}', { with: { type: 'text' } })).default;`],
    ['a text import through a symlink that points out', () => `export default async () => (await import('${url(join(b.workspace, 'sub', 'escape-link'))}', { with: { type: 'text' } })).default;`],
    ['fetch of a file: URL outside', () => `export default async () => (await fetch('${url(join(b.outside, 'secret.txt'))}')).text();`],
    ['Deno.readTextFile of a symlink that points out', () => `export default () => Deno.readTextFile('${join(b.workspace, 'sub', 'escape-link')}');`],
    ['Deno.readTextFile through a folder symlink that points out', () => `export default () => Deno.readTextFile('${join(b.workspace, 'escape-dir', 'secret.txt')}');`],
    ['Deno.readTextFile of .nodwyn/ through a symlink to the workspace root', () => `export default () => Deno.readTextFile('${join(b.workspace, 'root-alias', '.nodwyn', 'config.toml')}');`],
    ['node:fs through a symlink that points out', () => `import fs from 'node:fs';\nexport default () => fs.readFileSync('${join(b.workspace, 'sub', 'escape-link')}', 'utf8');`],
    ['nodwyn data directory by absolute path', () => `export default () => Deno.readTextFile('${join(b.home, 'nodwyn.db')}');`],
    ['/proc/self/environ', () => "export default () => Deno.readTextFile('/proc/self/environ');"],
    ['the harness, found from a stack trace', () => "export default () => { const m = /file:\\/\\/(\\S+harness\\.js)/.exec(new Error().stack); return Deno.readTextFile(m ? m[1] : '/nonexistent'); };"],
  ];

  for (const grants of [{ read: true }, BOTH]) {
    it.each(reads)(`%s is refused (grants ${JSON.stringify(grants)})`, async (_label, code) => {
      const result = await b.run(code(), { grants });
      expectRefused(result, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
      expectHidden(result);
    });
  }
});

describe('Deno runner: Deno\'s own APIs cannot move a symlink or make one', () => {
  const attempts: [string, () => string][] = [
    ['renaming a symlink that points out', () => `export default () => Deno.rename('${join(b.workspace, 'sub', 'escape-link')}', '${join(b.workspace, 'moved-link')}');`],
    ['renaming the folder that holds one', () => `export default () => Deno.rename('${join(b.workspace, 'sub')}', '${join(b.workspace, 'sub2')}');`],
    ['removing the folder that holds one', () => `export default () => Deno.remove('${join(b.workspace, 'sub')}', { recursive: true });`],
    ['making a new symlink out', () => `export default () => Deno.symlink('${b.outside}', '${join(b.workspace, 'new-link')}');`],
    ['a hard link to a file outside', () => `export default () => Deno.link('${join(b.outside, 'secret.txt')}', '${join(b.workspace, 'hard')}');`],
    ['writing through a folder symlink', () => `export default () => Deno.writeTextFile('${join(b.workspace, 'escape-dir', 'planted.txt')}', 'x');`],
    ['writing into .nodwyn/', () => `export default () => Deno.writeTextFile('${join(b.workspace, '.nodwyn', 'config.toml')}', 'tampered');`],
    ['renaming a folder onto .nodwyn/', () => `export default async () => { await Deno.mkdir('${join(b.workspace, 'fake')}'); await Deno.rename('${join(b.workspace, 'fake')}', '${join(b.workspace, '.nodwyn')}'); };`],
  ];

  it.each(attempts)('%s is refused', async (_label, code) => {
    const result = await b.run(code(), { grants: BOTH });
    expectRefused(result, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
    expect(lstatSync(join(b.workspace, 'sub', 'escape-link')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(b.workspace, 'moved-link')) || existsSync(join(b.workspace, 'sub2')) || existsSync(join(b.workspace, 'new-link'))).toBe(false);
    expect(existsSync(join(b.outside, 'planted.txt'))).toBe(false);
    expect(readFileSync(join(b.workspace, '.nodwyn', 'config.toml'), 'utf8')).toBe(`# ${NODWYN}\n`);
  });

  it('cannot create .nodwyn/ where there is none (a planted config would load once the folder is trusted)', async () => {
    const fresh = makeBench();
    try {
      const result = await fresh.run(`export default () => Deno.mkdir('${join(fresh.workspace, '.nodwyn')}');`, { grants: BOTH });
      expectRefused(result, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
      expect(existsSync(join(fresh.workspace, '.nodwyn'))).toBe(false);
    } finally {
      fresh.remove();
    }
  });

  it('keeps a data directory that lies inside the workspace out of reach', async () => {
    const nested = makeBench({ forbidden: [] });
    try {
      const data = nested.file('workspace/nodwyn-home/nodwyn.db', HOME);
      const runner = makeBench({ forbidden: [join(nested.workspace, 'nodwyn-home')] });
      const code = `export default () => Deno.readTextFile('${data}');`;
      const result = await runner.runner.run({
        session: 't',
        code,
        args: {},
        grants: BOTH,
        workspace: nested.workspace,
        signal: new AbortController().signal,
        apply: () => Promise.reject(new Error('unused')),
      });
      expectRefused(result, 'PERMISSION_DENIED', 'SANDBOX_ACCESS_DENIED');
      expectHidden(result);
      runner.remove();
    } finally {
      nested.remove();
    }
  });
});
