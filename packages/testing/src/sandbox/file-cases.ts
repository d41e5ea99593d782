import { ContractCodes } from '@nodwyn/plugin-api';
import type { SandboxResult } from '@nodwyn/plugin-api/sandbox';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { expectAbsent, expectFailure, expectValue, type EscapeCase } from './escape-case.js';

const READ = 'export default (a, nodwyn) => nodwyn.readFile(a.path)';
const WRITE = "export default async (a, nodwyn) => { await nodwyn.writeFile(a.path, a.text); return 'written'; }";

/** Plain computation: a value in, a JSON value out, sync or async. */
export const computeCase: EscapeCase = {
  id: 'compute',
  title: 'computes and returns a JSON value',
  setup: () => [
    {
      label: 'sync',
      input: { code: 'export default (a) => ({ sum: a.x + a.y, doubled: a.items.map((n) => n * 2), nested: { ok: true, none: null } })', args: { x: 2, y: 3, items: [1, 2, 3] } },
      expect: (r) => expectValue(r, 'sync', { sum: 5, doubled: [2, 4, 6], nested: { ok: true, none: null } }),
    },
    {
      label: 'async',
      input: { code: "export default async (a) => { await Promise.resolve(); return 'async ' + a.word; }", args: { word: 'works' } },
      expect: (r) => expectValue(r, 'async', 'async works'),
    },
  ],
};

/** Each door is shut without its grant, with an envelope that names the grant. */
export const grantsMissingCase: EscapeCase = {
  id: 'grants-missing',
  title: 'refuses readFile, writeFile and fetch without their grants',
  setup(f) {
    f.file('grantless.txt', 'not for you\n');
    return [
      {
        label: 'read without read',
        input: { code: READ, args: { path: 'grantless.txt' }, grants: { write: true } },
        expect(r) {
          expectFailure(r, 'read without read', 'PERMISSION_DENIED', ContractCodes.SANDBOX_GRANT_MISSING);
          expectAbsent(r, 'not for you', 'read without read');
        },
      },
      {
        label: 'write without write',
        input: { code: WRITE, args: { path: 'grantless-new.txt', text: 'x' }, grants: { read: true } },
        expect(r) {
          expectFailure(r, 'write without write', 'PERMISSION_DENIED', ContractCodes.SANDBOX_GRANT_MISSING);
          expect(existsSync(join(f.workspace, 'grantless-new.txt'))).toBe(false);
        },
      },
      {
        label: 'fetch without net',
        input: { code: 'export default (a, nodwyn) => nodwyn.fetch(a.url)', args: { url: `${f.granted.origin}/grantless` }, grants: { read: true, write: true } },
        expect(r) {
          expectFailure(r, 'fetch without net', 'PERMISSION_DENIED');
          expect(f.granted.seen.filter((s) => s.url === '/grantless')).toHaveLength(0);
        },
      },
    ];
  },
};

/** readFile hands back the file's exact text. */
export const readGrantedCase: EscapeCase = {
  id: 'read-granted',
  title: 'reads a workspace file when read is granted',
  setup(f) {
    const text = 'first line\n\tindented naïve ✓\n\nlast line\n';
    f.file('docs/notes.txt', text);
    return [{ label: 'read', input: { code: READ, args: { path: 'docs/notes.txt' }, grants: { read: true } }, expect: (r) => expectValue(r, 'read', text) }];
  },
};

/** writeFile creates and replaces files, and a run reads back what it wrote. */
export const writeGrantedCase: EscapeCase = {
  id: 'write-granted',
  title: 'writes a workspace file when write is granted',
  setup(f) {
    f.file('out/replace.txt', 'old content that is longer\n');
    return [
      {
        label: 'create',
        input: { code: WRITE, args: { path: 'out/new/created.json', text: '{"a":1}\n' }, grants: { write: true } },
        expect(r) {
          expectValue(r, 'create', 'written');
          expect(readFileSync(join(f.workspace, 'out/new/created.json'), 'utf8')).toBe('{"a":1}\n');
        },
      },
      {
        label: 'replace',
        input: { code: WRITE, args: { path: 'out/replace.txt', text: 'new\n' }, grants: { write: true } },
        expect(r) {
          expectValue(r, 'replace', 'written');
          expect(readFileSync(join(f.workspace, 'out/replace.txt'), 'utf8')).toBe('new\n');
        },
      },
      {
        label: 'round trip',
        input: { code: 'export default async (a, nodwyn) => { await nodwyn.writeFile(a.path, a.text); return nodwyn.readFile(a.path); }', args: { path: 'rt.txt', text: 'round\ntrip\n' }, grants: { read: true, write: true } },
        expect: (r) => expectValue(r, 'round trip', 'round\ntrip\n'),
      },
    ];
  },
};

/** Nothing outside the workspace, by `..`, absolute path or symlink, for reading or writing. */
export const outsideWorkspaceCase: EscapeCase = {
  id: 'outside-workspace',
  title: 'refuses paths outside the workspace (.., absolute, symlinks), with read and write granted',
  setup(f) {
    const marker = `outside-marker-${f.canary.slice(-6)}`;
    writeFileSync(join(f.outside, 'secret.txt'), `${marker}\n`);
    symlinkSync(join(f.outside, 'secret.txt'), join(f.workspace, 'escape-link.txt'));
    symlinkSync(f.outside, join(f.workspace, 'escape-dir'));
    symlinkSync(join(f.outside, 'dangling.txt'), join(f.workspace, 'dangling-link.txt'));
    const grants = { read: true, write: true };
    const reads = ['../outside/secret.txt', join(f.outside, 'secret.txt'), '/etc/passwd', 'escape-link.txt', 'escape-dir/secret.txt', 'sub/../../outside/secret.txt'];
    const writes: [string, string][] = [
      ['../outside/written.txt', join(f.outside, 'written.txt')],
      ['escape-dir/through-dir.txt', join(f.outside, 'through-dir.txt')],
      ['dangling-link.txt', join(f.outside, 'dangling.txt')],
      [join(f.outside, 'absolute.txt'), join(f.outside, 'absolute.txt')],
    ];
    return [
      ...reads.map((path) => ({
        label: `read ${path}`,
        input: { code: READ, args: { path }, grants },
        expect(r: SandboxResult) {
          expectFailure(r, `read ${path}`, 'PERMISSION_DENIED');
          expectAbsent(r, marker, `read ${path}`);
          expectAbsent(r, 'root:x:0:0', `read ${path}`);
        },
      })),
      ...writes.map(([path, lands]) => ({
        label: `write ${path}`,
        input: { code: WRITE, args: { path, text: 'escaped' }, grants },
        expect(r: SandboxResult) {
          expectFailure(r, `write ${path}`, 'PERMISSION_DENIED');
          expect(existsSync(lands), `${lands} was written`).toBe(false);
        },
      })),
    ];
  },
};

/** `.nodwyn/` (any case, any spelling, through a symlink) and the kernel's database are never reachable. */
export const nodwynDirCase: EscapeCase = {
  id: 'nodwyn-dir',
  title: 'refuses .nodwyn/ in any spelling and the kernel database, with read and write granted',
  setup(f) {
    const marker = `nodwyn-config-${f.canary.slice(-6)}`;
    const config = f.file('.nodwyn/config.toml', `# ${marker}\n`);
    mkdirSync(join(f.workspace, 'sub'));
    symlinkSync(config, join(f.workspace, 'alias.toml'));
    symlinkSync(join(f.workspace, '.nodwyn'), join(f.workspace, 'alias-dir'));
    const dbSize = statSync(f.dbPath).size;
    const grants = { read: true, write: true };
    const reads = ['.nodwyn/config.toml', './sub/../.nodwyn/config.toml', '.NODWYN/config.toml', '.Nodwyn/config.toml', 'alias.toml', 'alias-dir/config.toml', config, f.dbPath];
    const writes = ['.nodwyn/config.toml', '.nodwyn/new.toml', '.NODWYN/new.toml', 'sub/../.Nodwyn/new.toml', 'alias.toml', 'alias-dir/new.toml', f.dbPath];
    return [
      ...reads.map((path) => ({
        label: `read ${path}`,
        input: { code: READ, args: { path }, grants },
        expect(r: SandboxResult) {
          expectFailure(r, `read ${path}`, 'PERMISSION_DENIED');
          expectAbsent(r, marker, `read ${path}`);
          expectAbsent(r, 'SQLite format', `read ${path}`);
        },
      })),
      ...writes.map((path) => ({
        label: `write ${path}`,
        input: { code: WRITE, args: { path, text: 'tampered' }, grants },
        expect(r: SandboxResult) {
          expectFailure(r, `write ${path}`, 'PERMISSION_DENIED');
          expect(readFileSync(config, 'utf8')).toBe(`# ${marker}\n`);
          for (const dir of ['.nodwyn', '.NODWYN', '.Nodwyn']) expect(existsSync(join(f.workspace, dir, 'new.toml')), `${dir}/new.toml`).toBe(false);
          expect(statSync(f.dbPath).size).toBeGreaterThanOrEqual(dbSize);
          expect(readFileSync(f.dbPath).subarray(0, 15).toString()).toBe('SQLite format 3');
        },
      })),
    ];
  },
};
