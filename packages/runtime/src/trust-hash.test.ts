import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entryHash, folderHash, type FolderEntry } from './trust-hash.js';

const file = (path: string, text: string): FolderEntry => ({ path, kind: 'file', data: Buffer.from(text) });

describe('folderHash', () => {
  it('is a sha256 in the form the trust store checks, and the plain sha256 of nothing for no entries', () => {
    expect(folderHash([file('config.toml', 'x')])).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(folderHash([])).toBe(`sha256:${createHash('sha256').digest('hex')}`);
  });

  it('does not depend on the order the entries come in', () => {
    const a = file('config.toml', '[budgets]\n');
    const b = file('hooks/init.sh', 'echo hi\n');
    const c = file('Z.md', 'upper case sorts first\n');
    expect(folderHash([a, b, c])).toBe(folderHash([c, b, a]));
    expect(folderHash([b, a, c])).toBe(folderHash([a, c, b]));
  });

  it('changes when one byte of content changes', () => {
    expect(folderHash([file('config.toml', 'max_turns = 5\n')])).not.toBe(folderHash([file('config.toml', 'max_turns = 6\n')]));
  });

  it('changes when a file is renamed or moved, with the same bytes', () => {
    const text = '[tools.shell]\nallow = ["echo *"]\n';
    expect(folderHash([file('config.toml', text)])).not.toBe(folderHash([file('other.toml', text)]));
    expect(folderHash([file('config.toml', text)])).not.toBe(folderHash([file('sub/config.toml', text)]));
  });

  it('changes when bytes move across a boundary: between two files, or between a path and its content', () => {
    expect(folderHash([file('a', 'xy'), file('b', '')])).not.toBe(folderHash([file('a', 'x'), file('b', 'y')]));
    expect(folderHash([file('ab', 'c')])).not.toBe(folderHash([file('a', 'bc')]));
    // A file whose bytes spell out the framing of a following entry still differs from two entries.
    expect(folderHash([file('a', 'X'), file('b', '')])).not.toBe(folderHash([file('a', 'Xfile\u00001\u0000b\u00000\u0000')]));
    expect(folderHash([file('a', 'X'), file('b', '')])).not.toBe(folderHash([file('a', 'Xfile\u00001\u0000b')]));
  });

  it('tells an unreviewable entry from a file with the same text', () => {
    const link: FolderEntry = { path: 'x', kind: 'unreviewable', data: Buffer.from('a symlink to /etc') };
    expect(folderHash([link])).not.toBe(folderHash([file('x', 'a symlink to /etc')]));
  });
});

describe('entryHash', () => {
  it('depends on the content and kind, not on the path (the path is the key it is stored under)', () => {
    expect(entryHash(file('a', 'same'))).toBe(entryHash(file('b', 'same')));
    expect(entryHash(file('a', 'same'))).not.toBe(entryHash(file('a', 'other')));
  });
});
