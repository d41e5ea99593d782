import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, protectedFolderOf, realpathLoose, realProtectedFolders, touchesNodwynFolder, WORKSPACE_NODWYN_FOLDER_NAME } from './workspace-paths.js';

describe('isInside', () => {
  it.each([
    ['/w', '/w', true],
    ['/w', '/w/a/b', true],
    ['/w', '/w/..a', true],
    ['/w', '/wx', false],
    ['/w', '/', false],
    ['/w', '/w/../x', false],
  ])('isInside(%s, %s) is %s', (root, path, inside) => {
    expect(isInside(root, join(path))).toBe(inside);
  });
});

describe('touchesNodwynFolder', () => {
  it('finds .nodwyn at any depth and in any case, and nothing that only starts like it', () => {
    expect(touchesNodwynFolder('/w', '/w/.nodwyn/config.toml')).toBe(true);
    expect(touchesNodwynFolder('/w', '/w/a/.NODWYN')).toBe(true);
    expect(touchesNodwynFolder('/w', '/w/.nodwyn-notes/x')).toBe(false);
  });
});

describe('realpathLoose', () => {
  it('answers where a path that does not exist yet would land, through symlinked and dangling parents', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-paths-')));
    try {
      mkdirSync(join(root, 'real'));
      symlinkSync(join(root, 'real'), join(root, 'link'));
      symlinkSync(join(root, 'nowhere', 'target'), join(root, 'dangling'));
      symlinkSync('loop', join(root, 'loop'));
      expect(await realpathLoose(join(root, 'link', 'new', 'file.txt'))).toBe(join(root, 'real', 'new', 'file.txt'));
      expect(await realpathLoose(join(root, 'dangling'))).toBe(join(root, 'nowhere', 'target'));
      await expect(realpathLoose(join(root, 'loop'))).rejects.toMatchObject({ code: 'ELOOP' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('protected folders', () => {
  it("always include the workspace's .nodwyn/, resolve each folder's symlinks, and match without regard to case", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-paths-')));
    try {
      mkdirSync(join(root, 'real-home'));
      symlinkSync(join(root, 'real-home'), join(root, 'home'));
      const folders = await realProtectedFolders(root, [{ path: join(root, 'home'), name: "nodwyn's data folder" }]);
      expect(folders).toEqual([
        { path: join(root, '.nodwyn'), name: WORKSPACE_NODWYN_FOLDER_NAME },
        { path: join(root, 'real-home'), name: "nodwyn's data folder" },
      ]);
      expect(protectedFolderOf(join(root, 'REAL-HOME', 'log.key'), folders)?.name).toBe("nodwyn's data folder");
      expect(protectedFolderOf(join(root, '.Nodwyn'), folders)?.name).toBe(WORKSPACE_NODWYN_FOLDER_NAME);
      expect(protectedFolderOf(join(root, 'real-home2', 'x'), folders)).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
