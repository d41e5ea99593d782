import { type PluginDefinition } from '@nodwyn/plugin-api';
import { sandboxRunnerToken, type SandboxGrants, type SandboxLimits, type SandboxResult, type SandboxRunner } from '@nodwyn/plugin-api/sandbox';
import { EnvelopeSchema } from '@nodwyn/protocol';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { startTestKernel, type TestKernel } from '../start-test-kernel.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

/** The environment variable that holds the canary no run may ever show. */
export const CANARY_VARIABLE = 'NODWYN_SANDBOX_CANARY';

/** One run as a case states it; the fixture fills in session, workspace, apply and a signal. */
export interface RunInput {
  readonly code: string;
  readonly args?: unknown;
  readonly grants?: SandboxGrants;
  readonly limits?: Partial<SandboxLimits>;
  readonly signal?: AbortSignal;
}

/**
 * Everything an escape case needs: the runner from a real kernel, a workspace, a folder outside it, the
 * kernel's database file, a canary in the environment, and two loopback servers (`granted`, `other`).
 */
export interface SandboxFixture {
  readonly runner: SandboxRunner;
  readonly kernel: TestKernel;
  readonly session: string;
  readonly workspace: string;
  /** A folder next to the workspace, holding what no run may read or write. */
  readonly outside: string;
  /** NODWYN_HOME for the run (bindings.toml, the database). */
  readonly home: string;
  readonly dbPath: string;
  readonly canary: string;
  readonly granted: RecordingServer;
  readonly other: RecordingServer;
  /** Runs code; checks the result is well formed and holds no canary. */
  run(input: RunInput): Promise<SandboxResult>;
  /** Writes a file in the workspace (parents created) and returns its absolute path. */
  file(path: string, text: string): string;
  stop(): Promise<void>;
}

/** What the fixture needs from the suite's options. */
export interface FixtureOptions {
  readonly plugin: PluginDefinition;
  readonly id: string;
  readonly hostPlugins: readonly PluginDefinition[];
}

function expectWellFormed(result: SandboxResult, canary: string): void {
  expect(typeof result.logs).toBe('string');
  expect(Array.isArray(result.taint)).toBe(true);
  if (result.ok) expect(typeof result.truncated).toBe('boolean');
  else expect(EnvelopeSchema.safeParse(result.envelope).success, JSON.stringify(result.envelope)).toBe(true);
  expect(JSON.stringify(result)).not.toContain(canary);
}

/** Swaps environment variables for the fixture's lifetime and returns how to put them back. */
function swapEnv(values: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** Starts a kernel with the runner and its host plugins, in fresh temp folders. Always `stop()` it. */
export async function startSandboxFixture(options: FixtureOptions): Promise<SandboxFixture> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-sandbox-')));
  const [workspace, outside, home] = ['workspace', 'outside', 'home'].map((name) => join(root, name)) as [string, string, string];
  for (const dir of [workspace, outside, home]) mkdirSync(dir);
  const canary = `canary-${randomBytes(12).toString('hex')}`;
  const restoreEnv = swapEnv({ NODWYN_HOME: home, [CANARY_VARIABLE]: canary });
  const dbPath = join(home, 'nodwyn.db');
  const servers = await Promise.all([startRecordingServer(), startRecordingServer()]);
  const [granted, other] = servers;
  let kernel: TestKernel;
  try {
    kernel = await startTestKernel({ plugins: [...options.hostPlugins, options.plugin], workspace, dbPath });
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    restoreEnv();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const runner = kernel.host.service(sandboxRunnerToken(options.id));
  if (!runner) throw new Error(`${options.plugin.manifest.name} provides no service sandbox.${options.id}`);
  const session = kernel.session();
  return {
    runner,
    kernel,
    session,
    workspace: kernel.workspace,
    outside,
    home,
    dbPath,
    canary,
    granted,
    other,
    async run(input) {
      const signal = input.signal ?? new AbortController().signal;
      const result = await runner.run({
        session,
        code: input.code,
        args: input.args ?? {},
        grants: input.grants ?? {},
        ...(input.limits ? { limits: input.limits } : {}),
        workspace: kernel.workspace,
        signal,
        apply: (name, args, o = {}) => kernel.kernel.apply({ session, name, args, origin: 'host', signal, taint: o.taint ?? [] }),
      });
      expectWellFormed(result, canary);
      return result;
    },
    file(path, text) {
      const absolute = join(kernel.workspace, path);
      mkdirSync(dirname(absolute), { recursive: true });
      writeFileSync(absolute, text);
      return absolute;
    },
    async stop() {
      await kernel.stop();
      await Promise.all(servers.map((s) => s.close()));
      restoreEnv();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
