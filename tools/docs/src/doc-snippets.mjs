// The docs' TypeScript comes from files that build and are tested (examples/, plugins/), so it cannot
// drift. A block shown from a file is preceded by `<!-- include: PATH -->` (PATH from the repository
// root) and holds `// <PATH within its package>` followed by the file's text, exactly. A block that is
// not compiled says so with `<!-- not-compiled: why -->`; any other TypeScript block is an error.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const INCLUDE = /^<!-- include: (\S+) -->$/;
const NOT_COMPILED = /^<!-- not-compiled: \S.* -->$/;
const TS_FENCE = /^\s*```(ts|typescript|tsx)\s*$/;
const FENCE = /^\s*```/;

/**
 * What a block that includes `path` must hold: the path within its package (the nearest folder with a
 * package.json) as a comment line, then the file's text.
 * @param {string} root the repository root
 * @param {string} path the included file, relative to `root`
 * @returns {string}
 */
export function includedText(root, path) {
  const top = resolve(root);
  const file = join(top, path);
  let pkg = dirname(file);
  while (pkg !== top && pkg !== dirname(pkg) && !existsSync(join(pkg, 'package.json'))) pkg = dirname(pkg);
  const text = readFileSync(file, 'utf8');
  return `// ${relative(pkg, file)}\n${text.endsWith('\n') ? text : `${text}\n`}`;
}

/**
 * Brings every include block of a Markdown text in line with its file.
 * @param {string} markdown the document
 * @param {(path: string) => string} read the text an include of `path` must hold (throws when the file is missing)
 * @returns {{ text: string, problems: string[] }} the synced text, and each stale, broken or unmarked block by line
 */
export function syncSnippets(markdown, read) {
  const lines = markdown.split('\n');
  const out = [];
  const problems = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const include = INCLUDE.exec(line);
    if (!include) {
      const previous = TS_FENCE.test(line) ? (out.findLast((l) => l.trim() !== '') ?? '') : undefined;
      if (previous !== undefined && !INCLUDE.test(previous) && !NOT_COMPILED.test(previous)) {
        problems.push(`line ${i + 1}: a TypeScript block without <!-- include: PATH --> or <!-- not-compiled: why -->`);
      }
      out.push(line);
      continue;
    }
    out.push(line);
    const open = lines[i + 1] ?? '';
    const end = lines.findIndex((l, j) => j > i + 1 && FENCE.test(l));
    if (!TS_FENCE.test(open) || end === -1) {
      problems.push(`line ${i + 1}: an include is not followed by a whole \`\`\`ts block`);
      continue;
    }
    let wanted;
    try {
      wanted = read(include[1] ?? '');
    } catch (error) {
      problems.push(`line ${i + 1}: cannot read ${include[1]}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const shown = `${lines.slice(i + 2, end).join('\n')}\n`;
    if (shown !== wanted) problems.push(`line ${i + 1}: the block differs from ${include[1]}`);
    out.push(open, ...wanted.replace(/\n$/, '').split('\n'), lines[end] ?? '```');
    i = end;
  }
  return { text: out.join('\n'), problems };
}
