import type { SandboxGrants, SandboxLimits, SandboxResult, SandboxRunner } from '@nodwyn/plugin-api/sandbox';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { createDenoRunner, type DenoRunnerOptions } from '../src/index.js';

/** A temp root with a workspace, a folder outside it and a data folder, and a runner that forbids the data folder. */
export interface Bench {
  readonly root: string;
  readonly workspace: string;
  readonly outside: string;
  readonly home: string;
  readonly runner: SandboxRunner;
  run(code: string, options?: { args?: unknown; grants?: SandboxGrants; limits?: Partial<SandboxLimits>; signal?: AbortSignal }): Promise<SandboxResult>;
  /** Writes a file under the root (parents made); returns its path. */
  file(path: string, text: string): string;
  remove(): void;
}

export function makeBench(options: DenoRunnerOptions = {}): Bench {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-deno-test-')));
  const [workspace, outside, home] = ['workspace', 'outside', 'home'].map((name) => join(root, name)) as [string, string, string];
  for (const dir of [workspace, outside, home]) mkdirSync(dir);
  const runner = createDenoRunner({ forbidden: [home], ...options });
  return {
    root,
    workspace,
    outside,
    home,
    runner,
    run: (code, o = {}) =>
      runner.run({
        session: 'test',
        code,
        args: o.args ?? {},
        grants: o.grants ?? {},
        ...(o.limits ? { limits: o.limits } : {}),
        workspace,
        signal: o.signal ?? new AbortController().signal,
        apply: () => Promise.reject(new Error('the Deno runner makes no apply() calls')),
      }),
    file(path, text) {
      const absolute = join(root, path);
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, text);
      return absolute;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The run failed with `category` (and `code`, when given); returns the envelope. */
export function expectRefused(result: SandboxResult, category: string, code?: string) {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)?.slice(0, 200)}`);
  expect(result.envelope.category, JSON.stringify(result.envelope)).toBe(category);
  if (code !== undefined) expect(result.envelope.code, JSON.stringify(result.envelope)).toBe(code);
  return result.envelope;
}

/** The run returned `value`. */
export function expectValue(result: SandboxResult, value: unknown): void {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.envelope)}`);
  expect(result.value).toEqual(value);
}
