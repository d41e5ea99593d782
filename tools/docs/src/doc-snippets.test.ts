import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { includedText, syncSnippets } from './doc-snippets.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILES: Record<string, string> = { 'examples/a/src/a.ts': '// src/a.ts\nexport const a = 1;\n' };
const read = (path: string): string => {
  const text = FILES[path];
  if (text === undefined) throw new Error(`no such file: ${path}`);
  return text;
};
const doc = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('syncSnippets', () => {
  it('accepts an include that matches its file and leaves the text as it is', () => {
    const text = doc('# A', '<!-- include: examples/a/src/a.ts -->', '```ts', '// src/a.ts', 'export const a = 1;', '```');
    expect(syncSnippets(text, read)).toEqual({ text, problems: [] });
  });

  it('reports a stale include by line and rewrites it from the file', () => {
    const stale = doc('<!-- include: examples/a/src/a.ts -->', '```ts', '// src/a.ts', 'export const a = 2;', 'extra();', '```', 'after');
    const { text, problems } = syncSnippets(stale, read);
    expect(problems).toEqual(['line 1: the block differs from examples/a/src/a.ts']);
    expect(text).toBe(doc('<!-- include: examples/a/src/a.ts -->', '```ts', '// src/a.ts', 'export const a = 1;', '```', 'after'));
  });

  it('refuses a TypeScript block that is neither included nor marked as not compiled', () => {
    const text = doc('text', '', '```ts', 'const x = 1;', '```', '<!-- not-compiled: a fragment -->', '```ts', 'yield* x;', '```', '```sh', 'ls', '```');
    expect(syncSnippets(text, read).problems).toEqual(['line 3: a TypeScript block without <!-- include: PATH --> or <!-- not-compiled: why -->']);
  });

  it('reports an include of a missing file, and one not followed by a ts block', () => {
    const text = doc('<!-- include: examples/gone.ts -->', '```ts', 'x', '```', '<!-- include: examples/a/src/a.ts -->', 'prose');
    expect(syncSnippets(text, read).problems).toEqual([
      'line 1: cannot read examples/gone.ts: no such file: examples/gone.ts',
      'line 5: an include is not followed by a whole ```ts block',
    ]);
  });
});

describe('includedText', () => {
  it('heads the file with its path within the nearest package', () => {
    const text = includedText(ROOT, 'examples/watch-client/src/watch.ts');
    expect(text).toBe(`// src/watch.ts\n${readFileSync(join(ROOT, 'examples/watch-client/src/watch.ts'), 'utf8')}`);
  });
});

describe('the repository docs', () => {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));

  it.each(docs)('docs/%s shows every TypeScript block from a built, tested file, or marks it as not compiled', (name) => {
    const { problems } = syncSnippets(readFileSync(join(ROOT, 'docs', name), 'utf8'), (path) => includedText(ROOT, path));
    expect(problems, 'run `node tools/docs/sync-snippets.mjs --write` after changing an included file').toEqual([]);
  });
});
