import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completeFiles } from './file-completion.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-complete-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('completeFiles', () => {
  it('stops reading after its walk limit, breadth first, so the shortest paths are the ones seen', async () => {
    mkdirSync(join(root, 'bulk'));
    for (let i = 0; i < 30; i++) writeFileSync(join(root, 'bulk', `f${String(i).padStart(2, '0')}.txt`), '');
    const request = { workspace: root, prefix: '', limit: 1000, protectedFolders: [] };
    expect(await completeFiles(request)).toHaveLength(31);
    // One entry at the top (bulk/), then nine of its thirty files.
    const bounded = await completeFiles({ ...request, walkLimit: 10 });
    expect(bounded).toHaveLength(10);
    expect(bounded[0]).toBe('bulk/');
  });

  it('never descends into a folder that cannot hold a match', async () => {
    for (const folder of ['a/deep', 'b/deep']) {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, 'x.ts'), '');
    }
    // With room for only the top and b/'s entries, a walk that entered a/ would run out before b/deep/.
    expect(await completeFiles({ workspace: root, prefix: 'b/deep/', limit: 10, protectedFolders: [], walkLimit: 4 })).toEqual(['b/deep/x.ts']);
  });
});
