import { isEnvelopeError } from '@nodwyn/plugin-api';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanWorkspaceLinks } from './workspace-links.js';

let root: string;
let ws: string;
let out: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-deno-links-')));
  ws = join(root, 'ws');
  out = join(root, 'out');
  for (const dir of [ws, out, join(ws, 'src', 'deep'), join(ws, '.nodwyn')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(out, 'secret.txt'), 'secret');
  writeFileSync(join(ws, 'src', 'a.txt'), 'a');
  writeFileSync(join(ws, '.nodwyn', 'config.toml'), '');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('scanWorkspaceLinks', () => {
  it('finds nothing to deny in a workspace without symlinks', async () => {
    expect(await scanWorkspaceLinks(ws, { write: false, forbidden: [] })).toEqual({ denyRead: [], denyWrite: [] });
    expect(await scanWorkspaceLinks(ws, { write: true, forbidden: [] })).toEqual({ denyRead: [], denyWrite: [] });
  });

  it('read only: denies links that point out, into .nodwyn/ or nowhere, and keeps links that stay inside', async () => {
    symlinkSync(join(out, 'secret.txt'), join(ws, 'src', 'deep', 'out-file'));
    symlinkSync(out, join(ws, 'out-dir'));
    symlinkSync(join(ws, '.nodwyn', 'config.toml'), join(ws, 'alias.toml'));
    symlinkSync(join(out, 'missing'), join(ws, 'dangling'));
    symlinkSync('a.txt', join(ws, 'src', 'inside'));
    expect(await scanWorkspaceLinks(ws, { write: false, forbidden: [] })).toEqual({
      denyRead: [join(ws, 'alias.toml'), join(ws, 'dangling'), join(ws, 'out-dir'), join(ws, 'src', 'deep', 'out-file')].sort(),
      denyWrite: [],
    });
  });

  it('read only: denies a harmless folder link that leads to a denied link or to .nodwyn/, since Deno checks the new spelling', async () => {
    symlinkSync(join(out, 'secret.txt'), join(ws, 'src', 'deep', 'out-file'));
    symlinkSync(join(ws, 'src'), join(ws, 'src-alias'));
    symlinkSync(ws, join(ws, 'root-alias'));
    symlinkSync(join(ws, 'src', 'a.txt'), join(ws, 'plain-alias'));
    expect((await scanWorkspaceLinks(ws, { write: false, forbidden: [] })).denyRead).toEqual(
      [join(ws, 'root-alias'), join(ws, 'src', 'deep', 'out-file'), join(ws, 'src-alias')].sort(),
    );
  });

  it('read only: a link into a forbidden folder is denied, and the forbidden folder is not entered', async () => {
    const data = join(ws, 'data');
    mkdirSync(data);
    symlinkSync(out, join(data, 'inner'));
    symlinkSync(join(data), join(ws, 'data-alias'));
    expect((await scanWorkspaceLinks(ws, { write: false, forbidden: [data] })).denyRead).toEqual([join(ws, 'data-alias')]);
  });

  it('with write: freezes every link, harmless ones included, and every folder above one', async () => {
    symlinkSync('a.txt', join(ws, 'src', 'deep', 'rel'));
    symlinkSync(out, join(ws, 'out-dir'));
    expect(await scanWorkspaceLinks(ws, { write: true, forbidden: [] })).toEqual({
      denyRead: [join(ws, 'out-dir'), join(ws, 'src', 'deep', 'rel')],
      denyWrite: [join(ws, 'out-dir'), join(ws, 'src', 'deep', 'rel'), join(ws, 'src'), join(ws, 'src', 'deep')],
    });
  });

  it('does not enter .nodwyn/, which is denied whole, but does enter a folder named .NODWYN', async () => {
    symlinkSync(out, join(ws, '.nodwyn', 'link'));
    mkdirSync(join(ws, '.NODWYN'));
    symlinkSync(out, join(ws, '.NODWYN', 'link'));
    expect((await scanWorkspaceLinks(ws, { write: false, forbidden: [] })).denyRead).toEqual([join(ws, '.NODWYN', 'link')]);
  });

  it('refuses a workspace past its entry or link bounds', async () => {
    symlinkSync(out, join(ws, 'l1'));
    symlinkSync(out, join(ws, 'l2'));
    const codeOf = async (options: { maxEntries?: number; maxLinks?: number }) => {
      try {
        await scanWorkspaceLinks(ws, { write: false, forbidden: [], ...options });
        return undefined;
      } catch (error) {
        return isEnvelopeError(error) ? `${error.envelope.category} ${error.envelope.code}` : String(error);
      }
    };
    expect(await codeOf({ maxEntries: 3 })).toBe('PRECONDITION_FAILED SANDBOX_WORKSPACE_TOO_LARGE');
    expect(await codeOf({ maxLinks: 1 })).toBe('PRECONDITION_FAILED SANDBOX_WORKSPACE_TOO_LARGE');
    expect(await codeOf({ maxLinks: 2 })).toBeUndefined();
  });
});
