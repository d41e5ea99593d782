import { describe, expect, it } from 'vitest';
import { nodeArgv, permissionFlag } from './node-argv.js';

const input = { harnessPath: '/tmp/nodwyn-node-x/harness.mjs', codePath: '/tmp/nodwyn-node-x/code.mjs', memoryMb: 64, nodeVersion: '20.20.2' };

describe('nodeArgv', () => {
  it('turns the permission model on and grants reading the harness and the code, nothing else', () => {
    expect(nodeArgv(input)).toEqual([
      '--experimental-permission',
      '--disable-warning=ExperimentalWarning',
      '--allow-fs-read=/tmp/nodwyn-node-x/harness.mjs',
      '--allow-fs-read=/tmp/nodwyn-node-x/code.mjs',
      '--no-addons',
      '--max-old-space-size=64',
      '/tmp/nodwyn-node-x/harness.mjs',
      '/tmp/nodwyn-node-x/code.mjs',
    ]);
  });

  it('never grants writing, child processes, workers, or the workspace', () => {
    const argv = nodeArgv(input).join(' ');
    for (const flag of ['--allow-fs-write', '--allow-child-process', '--allow-worker', '--allow-addons', '--allow-wasi', '--inspect']) expect(argv).not.toContain(flag);
    expect(argv).not.toMatch(/--allow-fs-read=\*|--allow-fs-read=\/(\s|$)/);
  });

  it('sets the heap limit from memoryMb, as a whole number of at least 1', () => {
    expect(nodeArgv({ ...input, memoryMb: 12.7 })).toContain('--max-old-space-size=12');
    expect(nodeArgv({ ...input, memoryMb: 0.2 })).toContain('--max-old-space-size=1');
  });

  it('refuses a path Node would split on its comma or widen at its asterisk', () => {
    expect(() => nodeArgv({ ...input, codePath: '/tmp/a,/etc/code.mjs' })).toThrow(/comma or an asterisk/);
    expect(() => nodeArgv({ ...input, harnessPath: '/tmp/*/harness.mjs' })).toThrow(/comma or an asterisk/);
  });
});

describe('permissionFlag', () => {
  it('is --experimental-permission before the rename and --permission after it', () => {
    expect(permissionFlag('20.20.2')).toBe('--experimental-permission');
    expect(permissionFlag('v22.12.0')).toBe('--experimental-permission');
    expect(permissionFlag('22.13.0')).toBe('--permission');
    expect(permissionFlag('24.1.0')).toBe('--permission');
  });
});
