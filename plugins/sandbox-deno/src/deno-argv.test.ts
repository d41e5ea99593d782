import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { BASE_FLAGS, denoArgv, type DenoArgvInput } from './deno-argv.js';

const WS = '/home/ada/project';
const HARNESS = '/tmp/nodwyn-deno-x/harness.js';
const BASE = [...BASE_FLAGS, '--v8-flags=--max-old-space-size=64'];

function argv(grants: Partial<DenoArgvInput>): string[] {
  return denoArgv({ harness: HARNESS, workspace: WS, read: false, write: false, net: [], memoryMb: 64, ...grants });
}

describe('denoArgv', () => {
  it('passes the fixed flags every run gets, and nothing else, when nothing is granted', () => {
    expect(argv({})).toEqual(['run', '--no-prompt', '--quiet', '--no-config', '--no-lock', '--no-remote', '--no-npm', '--no-code-cache', '--v8-flags=--max-old-space-size=64', HARNESS]);
  });

  it('read grants the workspace for reading and denies .nodwyn/ after it', () => {
    expect(argv({ read: true })).toEqual([...BASE, `--allow-read=${WS}`, `--deny-read=${WS}/.nodwyn`, HARNESS]);
  });

  it('write grants the workspace for writing and denies .nodwyn/ after it', () => {
    expect(argv({ write: true })).toEqual([...BASE, `--allow-write=${WS}`, `--deny-write=${WS}/.nodwyn`, HARNESS]);
  });

  it('read and write together give both pairs', () => {
    expect(argv({ read: true, write: true })).toEqual([...BASE, `--allow-read=${WS}`, `--deny-read=${WS}/.nodwyn`, `--allow-write=${WS}`, `--deny-write=${WS}/.nodwyn`, HARNESS]);
  });

  it('net grants exactly the listed hosts in one flag', () => {
    expect(argv({ net: ['api.example.com', '127.0.0.1:8080'] })).toEqual([...BASE, '--allow-net=api.example.com,127.0.0.1:8080', HARNESS]);
  });

  it('everything granted, with denials from the symlink scan after .nodwyn/', () => {
    expect(argv({ read: true, write: true, net: ['h.example'], denyRead: [`${WS}/link`], denyWrite: [`${WS}/link`, `${WS}/dir`] })).toEqual([
      ...BASE,
      `--allow-read=${WS}`,
      `--deny-read=${WS}/.nodwyn`,
      `--deny-read=${WS}/link`,
      `--allow-write=${WS}`,
      `--deny-write=${WS}/.nodwyn`,
      `--deny-write=${WS}/link`,
      `--deny-write=${WS}/dir`,
      '--allow-net=h.example',
      HARNESS,
    ]);
  });

  it('denials without the grant they belong to are left out (nothing to deny)', () => {
    expect(argv({ denyRead: [`${WS}/link`], denyWrite: [`${WS}/link`] })).toEqual([...BASE, HARNESS]);
  });

  it('never passes a run, env, ffi, sys, import or all permission, nor a net flag without hosts, for any grant', () => {
    for (const read of [false, true]) {
      for (const write of [false, true]) {
        for (const net of [[], ['a.example']]) {
          const flags = argv({ read, write, net });
          expect(flags.filter((f) => /^--allow-(run|env|ffi|sys|import|all)|^-A$|^--unstable/.test(f))).toEqual([]);
          expect(flags.some((f) => f.startsWith('--allow-net'))).toBe(net.length > 0);
          expect(flags.at(-1)).toBe(HARNESS);
        }
      }
    }
  });

  it('rounds the heap limit up to whole MiB', () => {
    expect(argv({ memoryMb: 31.2 })).toContain('--v8-flags=--max-old-space-size=32');
  });

  it('refuses a path with a comma instead of letting Deno split it', () => {
    let caught: unknown;
    try {
      argv({ read: true, denyRead: [`${WS}/a,b`] });
    } catch (error) {
      caught = error;
    }
    expect(isEnvelopeError(caught) && caught.envelope.code).toBe('SANDBOX_PATH_UNSUPPORTED');
    expect(() => denoArgv({ harness: HARNESS, workspace: '/tmp/a,b', read: false, write: true, net: [], memoryMb: 64 })).toThrow(/comma/);
  });
});
