import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { expectValue, failed, type EscapeCase } from './escape-case.js';

/**
 * Each route to a process the runtimes know (Deno.Command, node:child_process, QuickJS's `os.exec`), tried
 * without catching: a runner contains it when the run fails and the marker file was never written.
 */
const SPAWN_CHILD_PROCESS = `
export default async (a) => {
  const script = 'echo spawned > ' + a.marker;
  if (typeof Deno !== 'undefined') {
    await new Deno.Command('/bin/sh', { args: ['-c', script] }).output();
    return 'spawned';
  }
  const cp = await import('node:child_process');
  cp.execFileSync('/bin/sh', ['-c', script]);
  return 'spawned';
};`;

const SPAWN_OS_EXEC = `
export default async (a) => {
  const os = await import('os');
  os.exec(['/bin/sh', '-c', 'echo spawned > ' + a.marker]);
  return 'spawned';
};`;

/** Each route to the environment; the runner may refuse or hand back a clean one, never the host's. */
const READ_ENV = `
export default async () => {
  if (typeof Deno !== 'undefined') return Deno.env.toObject();
  if (typeof process !== 'undefined') return { ...process.env };
  const std = await import('std');
  return std.getenviron();
};`;

const READ_ENV_MODULE = `
export default async () => {
  const p = await import('node:process');
  return { ...(p.env ?? p.default.env) };
};`;

/** Spawning a process is refused, whichever way the code tries. */
export const spawnCase: EscapeCase = {
  id: 'spawn',
  title: 'cannot spawn a process',
  setup(f) {
    return [SPAWN_CHILD_PROCESS, SPAWN_OS_EXEC].map((code, index) => {
      const marker = join(f.outside, `spawned-${index}.txt`);
      return {
        label: `spawn #${index}`,
        input: { code, args: { marker }, grants: { read: true, write: true } },
        expect(r) {
          failed(r, `spawn #${index}`);
          expect(existsSync(marker), 'a process ran').toBe(false);
        },
      };
    });
  },
};

/** The host's environment never shows: the fixture checks every result for the canary. */
export const envCase: EscapeCase = {
  id: 'env',
  title: "cannot read the host's environment variables",
  setup: () =>
    [READ_ENV, READ_ENV_MODULE].map((code, index) => ({
      label: `env #${index}`,
      input: { code, grants: { read: true } },
      expect: (r) => expect(JSON.stringify(r)).not.toMatch(/canary-[0-9a-f]{24}/),
    })),
};

const POLLUTE = `
export default (a, nodwyn) => {
  Object.prototype.polluted = 'yes';
  globalThis.leaked = 'yes';
  Array.prototype.push = function () { return 'hijacked'; };
  Function.prototype.toString = function () { return 'hijacked'; };
  Promise.prototype.then = function () { return 'hijacked'; };
  JSON.stringify = () => '"hijacked"';
  // A runner may freeze the door; the globals above are polluted either way.
  try {
    nodwyn.readFile = () => 'hijacked';
    Object.getPrototypeOf(nodwyn).hijacked = true;
  } catch {}
  return 'set';
};`;

const OBSERVE = `
export default async (a, nodwyn) => {
  const list = [];
  return {
    polluted: ({}).polluted ?? null,
    leaked: globalThis.leaked ?? null,
    push: list.push(1),
    toString: typeof Function.prototype.toString.call(() => 1),
    then: await Promise.resolve('then works'),
    door: nodwyn.readFile === undefined ? 'absent' : String(nodwyn.readFile).includes('hijacked') ? 'hijacked' : 'fresh',
    doorProto: Object.getPrototypeOf(nodwyn)?.hijacked ?? null,
    json: JSON.stringify({ a: 1 }),
  };
};`;

/** What one run does to globals, prototypes or the door is gone in the next, and never reaches the host. */
export const pollutionCase: EscapeCase = {
  id: 'pollution',
  title: 'prototype pollution and tampered globals do not leak into the next run or the host',
  setup: () => [
    // Its own result may suffer from what it broke (then, JSON.stringify); only what follows is judged.
    { label: 'pollute', input: { code: POLLUTE, limits: { timeoutMs: 5_000 } }, expect: () => undefined },
    {
      label: 'observe',
      input: { code: OBSERVE },
      expect(r) {
        expectValue(r, 'observe', { polluted: null, leaked: null, push: 1, toString: 'string', then: 'then works', door: 'fresh', doorProto: null, json: '{"a":1}' });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect((globalThis as Record<string, unknown>).leaked).toBeUndefined();
        expect(([] as number[]).push(1)).toBe(1);
        expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
      },
    },
  ],
};
