import type { PluginDefinition } from '@nodwyn/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envCase, pollutionCase, spawnCase } from './ambient-cases.js';
import { expectValue, failed, SANDBOX_CASE_IDS, type Attempt, type EscapeCase } from './escape-case.js';
import { computeCase, grantsMissingCase, nodwynDirCase, outsideWorkspaceCase, readGrantedCase, writeGrantedCase } from './file-cases.js';
import { cancelCase, memoryCase, outputFloodCase, timeoutCase } from './limit-cases.js';
import { exfiltrateEnvCase, netGrantedCase, netNotGrantedCase } from './network-cases.js';
import { startSandboxFixture, type SandboxFixture } from './sandbox-fixture.js';

/** How to run the escape suite against one runner. */
export interface SandboxRunnerSuiteOptions {
  /** The runner plugin under test and the runner id it provides. */
  readonly plugin: PluginDefinition;
  readonly id: string;
  /** Plugins that provide the host primitives the runner's guarded doors call (the test passes tools-core, keychain, egress, redact-l1, redact-l2 from its devDependencies). */
  readonly hostPlugins: readonly PluginDefinition[];
  /**
   * Cases this runner cannot contain by design (e.g. Node's network), each with the reason; the suite asserts
   * they are refused up front instead: each run of the case, with its `net` grant taken away, must fail with
   * PERMISSION_DENIED or PRECONDITION_FAILED before any code ran (no logs, no request at either server).
   * Keys are case ids (`SANDBOX_CASE_IDS`); an unknown key fails the suite when it is declared.
   */
  readonly uncontained?: Readonly<Record<string, string>>;
}

/** Every case, in the order the suite runs them. */
export const SANDBOX_ESCAPE_CASES: readonly EscapeCase[] = [
  computeCase,
  grantsMissingCase,
  readGrantedCase,
  writeGrantedCase,
  outsideWorkspaceCase,
  nodwynDirCase,
  spawnCase,
  envCase,
  netNotGrantedCase,
  netGrantedCase,
  timeoutCase,
  memoryCase,
  outputFloodCase,
  pollutionCase,
  exfiltrateEnvCase,
  cancelCase,
];

/** Per case; a contained run ends well inside this even on a slow machine. */
const CASE_TIMEOUT_MS = 180_000;

async function expectStillWorks(f: SandboxFixture, after: string): Promise<void> {
  const result = await f.run({ code: 'export default (a) => a.x + 1', args: { x: 41 } });
  expectValue(result, `a trivial run after "${after}"`, 42);
}

async function expectRefusedUpFront(f: SandboxFixture, attempt: Attempt): Promise<void> {
  const before = [f.granted.seen.length, f.other.seen.length];
  const { read, write } = attempt.input.grants ?? {};
  const result = await f.run({ ...attempt.input, grants: { read, write } });
  const env = failed(result, attempt.label);
  expect(['PERMISSION_DENIED', 'PRECONDITION_FAILED'], `${attempt.label}: ${JSON.stringify(env)}`).toContain(env.category);
  expect(result.logs, attempt.label).toBe('');
  expect([f.granted.seen.length, f.other.seen.length], `${attempt.label} sent a request`).toEqual(before);
}

/**
 * The escape suite every sandbox runner runs (issue 5): on a real kernel with real host primitives, each
 * case's runs are contained (an envelope or a contained value), the host survives, and a trivial run right
 * after still works. Cases a runner names in `uncontained` must instead be refused before any code runs.
 */
export function describeSandboxRunnerConformance(options: SandboxRunnerSuiteOptions): void {
  const uncontained: Readonly<Record<string, string | undefined>> = options.uncontained ?? {};
  const unknown = Object.keys(uncontained).filter((id) => !(SANDBOX_CASE_IDS as readonly string[]).includes(id));
  if (unknown.length > 0) throw new Error(`uncontained names unknown cases: ${unknown.join(', ')}; known: ${SANDBOX_CASE_IDS.join(', ')}`);

  describe(`${options.plugin.manifest.name} contains model-written code (sandbox.${options.id})`, () => {
    let f: SandboxFixture;
    beforeAll(async () => {
      f = await startSandboxFixture(options);
    }, 60_000);
    afterAll(async () => {
      await f?.stop();
    });

    it('provides a runner with its id, a description and a network kind', () => {
      expect(f.runner.id).toBe(options.id);
      expect(f.runner.description.length).toBeGreaterThan(10);
      expect(['guarded', 'flags', 'uncontained']).toContain(f.runner.network);
    });

    for (const escape of SANDBOX_ESCAPE_CASES) {
      const reason = uncontained[escape.id];
      const title = reason === undefined ? escape.title : `${escape.title}: refused up front (${reason})`;
      it(
        `${escape.id}: ${title}`,
        async () => {
          for (const attempt of await escape.setup(f)) {
            if (reason === undefined) await attempt.expect(await f.run(attempt.input));
            else await expectRefusedUpFront(f, attempt);
            await expectStillWorks(f, attempt.label);
          }
        },
        CASE_TIMEOUT_MS,
      );
    }
  });
}
