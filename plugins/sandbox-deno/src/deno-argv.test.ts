import { describe, expect, it } from 'vitest';
import { BASE_FLAGS, denoArgv, type DenoArgvInput } from './deno-argv.js';

const HARNESS = '/tmp/nodwyn-deno-x/harness.js';
const BASE = [...BASE_FLAGS, '--v8-flags=--max-old-space-size=64'];

function argv(grants: Partial<DenoArgvInput>): string[] {
  return denoArgv({ harness: HARNESS, net: [], memoryMb: 64, ...grants });
}

describe('denoArgv', () => {
  it('passes the fixed flags every run gets, and nothing else, when nothing is granted', () => {
    expect(argv({})).toEqual(['run', '--no-prompt', '--quiet', '--no-config', '--no-lock', '--no-remote', '--no-npm', '--no-code-cache', '--v8-flags=--max-old-space-size=64', HARNESS]);
  });

  it('net grants exactly the listed hosts in one flag', () => {
    expect(argv({ net: ['api.example.com', '127.0.0.1:8080'] })).toEqual([...BASE, '--allow-net=api.example.com,127.0.0.1:8080', HARNESS]);
  });

  it('never passes a file, run, env, ffi, sys, import or all permission, nor a net flag without hosts', () => {
    for (const net of [[], ['a.example']]) {
      const flags = argv({ net });
      expect(flags.filter((f) => /^--allow-(read|write|run|env|ffi|sys|import|all)|^--deny-|^-A$|^--unstable/.test(f))).toEqual([]);
      expect(flags.some((f) => f.startsWith('--allow-net'))).toBe(net.length > 0);
      expect(flags.at(-1)).toBe(HARNESS);
    }
  });

  it('rounds the heap limit up to whole MiB', () => {
    expect(argv({ memoryMb: 31.2 })).toContain('--v8-flags=--max-old-space-size=32');
  });
});
