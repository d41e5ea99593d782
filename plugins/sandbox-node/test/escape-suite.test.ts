import { SANDBOX_ESCAPE_CASES, startSandboxFixture, type Attempt, type SandboxFixture } from '@nodwyn/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxNodePlugin, sandboxNodePlugin } from '../src/index.js';
import { HOST_PLUGINS } from './host-plugins.js';

/**
 * The escape suite of @nodwyn/testing, run the only way it can hold for Node: every case on a runner made
 * with `networkCut` (as deployed where the network is cut another way), except the case Node cannot
 * contain, which runs on the runner as it ships and must be refused before any code runs.
 *
 * `describeSandboxRunnerConformance` runs every case on one plugin; for Node that cannot pass either way
 * (the shipped runner refuses the trivial no-grant runs the suite makes between cases, and a networkCut
 * runner on this machine really can open sockets), so the loop is spelled out here on the suite's own
 * cases and fixture, until the suite takes a second, refusing plugin for its `uncontained` cases.
 */
const UNCONTAINED = { 'net-not-granted': "Node's permission model cannot restrict the network; runs without a net grant are refused up front" } as const;
const CASE_TIMEOUT_MS = 180_000;

async function expectStillWorks(f: SandboxFixture, after: string): Promise<void> {
  const result = await f.run({ code: 'export default (a) => a.x + 1', args: { x: 41 } });
  expect(result.ok ? result.value : result.envelope, `a trivial run after "${after}"`).toBe(42);
}

/** The shipped runner refuses the attempt, its net grant taken away, before any code ran. */
async function expectRefusedUpFront(refusing: SandboxFixture, attempt: Attempt): Promise<void> {
  const before = [refusing.granted.seen.length, refusing.other.seen.length];
  const { read, write } = attempt.input.grants ?? {};
  const result = await refusing.run({ ...attempt.input, grants: { read, write } });
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.envelope.code).toBe('SANDBOX_NETWORK_UNCONTAINED');
  expect(result.logs).toBe('');
  expect([refusing.granted.seen.length, refusing.other.seen.length], `${attempt.label} sent a request`).toEqual(before);
}

describe('@nodwyn/plugin-sandbox-node contains model-written code (sandbox.node)', () => {
  let cut: SandboxFixture;
  let shipped: SandboxFixture;
  beforeAll(async () => {
    cut = await startSandboxFixture({ plugin: createSandboxNodePlugin({ networkCut: true }), id: 'node', hostPlugins: HOST_PLUGINS });
    shipped = await startSandboxFixture({ plugin: sandboxNodePlugin, id: 'node', hostPlugins: HOST_PLUGINS });
  }, 60_000);
  // In reverse order: each fixture puts back the environment variables it found.
  afterAll(async () => {
    await shipped?.stop();
    await cut?.stop();
  });

  it('provides a runner with its id, a description and the uncontained network kind', () => {
    expect(shipped.runner.id).toBe('node');
    expect(shipped.runner.description).toMatch(/cannot restrict the network/);
    expect(shipped.runner.network).toBe('uncontained');
  });

  for (const escape of SANDBOX_ESCAPE_CASES) {
    const reason = (UNCONTAINED as Partial<Record<string, string>>)[escape.id];
    it(
      `${escape.id}: ${reason === undefined ? escape.title : `refused up front (${reason})`}`,
      async () => {
        const f = reason === undefined ? cut : shipped;
        for (const attempt of await escape.setup(f)) {
          if (reason === undefined) await attempt.expect(await f.run(attempt.input));
          else await expectRefusedUpFront(f, attempt);
          await expectStillWorks(cut, attempt.label);
        }
      },
      CASE_TIMEOUT_MS,
    );
  }
});
