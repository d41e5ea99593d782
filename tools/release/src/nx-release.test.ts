import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './repo-root.js';

/** Release groups of nx.json's `release.projects`; every folder under them is a released package. */
const RELEASED_FOLDERS = ['packages', 'plugins', 'apps', 'examples'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

function version(root: string, folder: string): string {
  return (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The shipped nx.json's `nx release` in a clone of this repository: a conventional `feat(plugin-api)`
 * commit since the last release tags bumps plugin-api (and, through their dependency, its dependents)
 * and writes its CHANGELOG.md, while a package it does not touch keeps its version. Runs offline:
 * nx.json sets no GitHub release and installs the lock file with `--offline`.
 */
describe('nx release on the shipped nx.json', () => {
  let clone: string;
  let output: string;

  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'nodwyn-release-'));
    git(tmpdir(), 'clone', '-q', REPO_ROOT, clone);
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    git(clone, 'config', 'user.email', 'release-test@example.invalid');
    git(clone, 'config', 'user.name', 'release test');
    // The last release: every package tagged at the version it has now (docs/releasing.md, "first release").
    for (const group of RELEASED_FOLDERS) {
      for (const entry of readdirSync(join(clone, group))) {
        const manifest = JSON.parse(readFileSync(join(clone, group, entry, 'package.json'), 'utf8')) as { name: string; version: string };
        git(clone, 'tag', `${manifest.name}@${manifest.version}`);
      }
    }
    appendFileSync(join(clone, 'packages/plugin-api/src/version.ts'), '\n/** Added by the release test. */\nexport const RELEASE_TEST_MARKER = true;\n');
    writeFileSync(join(clone, 'packages/plugin-api/RELEASE-TEST.md'), 'release test\n');
    git(clone, 'add', '-A', 'packages/plugin-api');
    git(clone, 'commit', '-q', '-m', 'feat(plugin-api): a marker the release test adds');
    output = execFileSync('npx', ['nx', 'release', '--skip-publish'], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', CI: 'true' },
      timeout: 280_000,
    });
  }, 300_000);

  afterAll(() => {
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  it('bumps plugin-api from a feat commit: 0.1.0 → 0.1.1, because nx treats a 0.x minor as a patch', () => {
    expect(version(clone, 'packages/plugin-api')).toBe('0.1.1');
    expect(output).toContain('Applied semver relative bump "minor", derived from conventional commits data, to get new version 0.1.1');
  });

  it('leaves a package the commit did not touch, and that does not depend on plugin-api, at its version', () => {
    expect(version(clone, 'packages/protocol')).toBe('0.1.0');
    expect(version(clone, 'packages/client')).toBe('0.1.0');
  });

  it('writes the commit into plugin-api/CHANGELOG.md and no changelog for an untouched package', () => {
    const changelog = readFileSync(join(clone, 'packages/plugin-api/CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/^## 0\.1\.1 /m);
    expect(changelog).toContain('**plugin-api:** a marker the release test adds');
    expect(readdirSync(join(clone, 'packages/protocol'))).not.toContain('CHANGELOG.md');
  });

  it('commits and tags the release in the clone, pushing nothing', () => {
    expect(git(clone, 'log', '-1', '--format=%s').trim()).toBe('chore(release): publish');
    expect(git(clone, 'tag', '--points-at', 'HEAD').split('\n')).toContain('@nodwyn/plugin-api@0.1.1');
    expect(git(clone, 'status', '--porcelain', '--untracked-files=no').trim()).toBe('');
  });
});
