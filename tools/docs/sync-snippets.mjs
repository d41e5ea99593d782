#!/usr/bin/env node
// `node tools/docs/sync-snippets.mjs [--write]`: checks that every TypeScript block of docs/*.md is an
// include that matches its file, or is marked as not compiled; `--write` rewrites the stale includes
// from their files (then review the diff). The check also runs in `npm test`, in tools/docs's tests.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { includedText, syncSnippets } from './src/doc-snippets.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const write = process.argv.includes('--write');
let left = 0;
for (const name of readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md'))) {
  const path = join(root, 'docs', name);
  const before = readFileSync(path, 'utf8');
  const { text, problems } = syncSnippets(before, (file) => includedText(root, file));
  if (write && text !== before) {
    writeFileSync(path, text);
    console.log(`docs/${name}: rewrote its stale includes`);
  }
  for (const problem of problems) {
    if (write && problem.includes('the block differs')) continue;
    console.error(`docs/${name}: ${problem}`);
    left += 1;
  }
}
process.exitCode = left === 0 ? 0 : 1;
