import { startTestKernel } from '@nodwyn/testing';
import { sandboxRunnerToken } from '@nodwyn/plugin-api/sandbox';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeRunner, createSandboxNodePlugin, sandboxNodePlugin } from '../src/index.js';
import { runRequest } from './run-request.js';

const TRIVIAL = 'export default (a) => a.x + 1';
let temp: string;

beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'nodwyn-node-runner-test-'));
});
afterEach(() => rmSync(temp, { recursive: true, force: true }));

describe('createNodeRunner: the up-front network refusal', () => {
  it('refuses a run granted no network before anything is written or spawned', async () => {
    const runner = createNodeRunner({ tempDir: temp });
    for (const grants of [{}, { read: true, write: true }, { net: [] }]) {
      const result = await runner.run(runRequest('export default () => { throw new Error("ran") }', { grants }));
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.envelope).toMatchObject({ category: 'PERMISSION_DENIED', code: 'SANDBOX_NETWORK_UNCONTAINED', failed_parameter: '$.grants.net', plugin: '@nodwyn/plugin-sandbox-node' });
      expect(result.envelope.remediation).toMatch(/sandbox-quickjs/);
      expect(result.envelope.remediation).toMatch(/sandbox-deno/);
      expect(result.logs).toBe('');
      expect(readdirSync(temp)).toEqual([]);
    }
  });

  it('runs the code when the run is granted network hosts', async () => {
    const result = await createNodeRunner({ tempDir: temp }).run(runRequest(TRIVIAL, { args: { x: 1 }, grants: { net: ['api.example.com'] } }));
    expect(result).toEqual({ ok: true, value: 2, logs: '', truncated: false, taint: [] });
  });

  it('runs the code without a net grant when the network is cut another way', async () => {
    const result = await createNodeRunner({ networkCut: true, tempDir: temp }).run(runRequest(TRIVIAL, { args: { x: 41 } }));
    expect(result.ok && result.value).toBe(42);
  });

  it('answers CANCELLED for a signal aborted before the run, without spawning', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await createNodeRunner({ networkCut: true, tempDir: temp }).run(runRequest(TRIVIAL, { signal: controller.signal }));
    expect(!result.ok && result.envelope.category).toBe('CANCELLED');
    expect(readdirSync(temp)).toEqual([]);
  });

  it('removes the run\'s temp folder when the run ends', async () => {
    await createNodeRunner({ networkCut: true, tempDir: temp }).run(runRequest(TRIVIAL, { args: { x: 1 } }));
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe('createNodeRunner: malformed requests', () => {
  const runner = () => createNodeRunner({ networkCut: true, tempDir: temp });

  it('refuses limits that are not positive numbers', async () => {
    for (const limits of [{ timeoutMs: 0 }, { memoryMb: -1 }, { outputCap: Number.NaN }]) {
      const result = await runner().run(runRequest(TRIVIAL, { limits }));
      expect(!result.ok && result.envelope.code).toBe('SANDBOX_LIMITS_INVALID');
    }
  });

  it('refuses args that are not JSON and code that is not a string', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const [over, code] of [[{ args: cyclic }, 'SANDBOX_ARGS_NOT_JSON'], [{ args: 10n }, 'SANDBOX_ARGS_NOT_JSON'], [{ code: 42 as unknown as string }, 'SANDBOX_CODE_INVALID']] as const) {
      const result = await runner().run(runRequest(TRIVIAL, over));
      expect(!result.ok && result.envelope).toMatchObject({ category: 'VALIDATION_FAILED', code });
    }
  });
});

describe('sandboxNodePlugin', () => {
  it('provides service sandbox.node; it refuses no-network runs unless config says network_cut = true', async () => {
    for (const [settings, refused] of [[{}, true], [{ plugins: { '@nodwyn/plugin-sandbox-node': { network_cut: true } } }, false]] as const) {
      const t = await startTestKernel({ plugins: [sandboxNodePlugin], settings });
      try {
        const runner = t.host.service(sandboxRunnerToken('node'));
        if (!runner) throw new Error('no sandbox.node service');
        const result = await runner.run(runRequest(TRIVIAL, { args: { x: 1 }, workspace: t.workspace }));
        expect(result.ok, JSON.stringify(result)).toBe(!refused);
      } finally {
        await t.stop();
      }
    }
  });

  it('stops with CONFIG_INVALID when network_cut is not a boolean', async () => {
    await expect(startTestKernel({ plugins: [sandboxNodePlugin], settings: { plugins: { '@nodwyn/plugin-sandbox-node': { network_cut: 'yes' } } } })).rejects.toThrow(/CONFIG_INVALID|network_cut/);
  });

  it('keeps networkCut given in code', async () => {
    const t = await startTestKernel({ plugins: [createSandboxNodePlugin({ networkCut: true })] });
    try {
      const result = await t.host.service(sandboxRunnerToken('node'))?.run(runRequest(TRIVIAL, { args: { x: 1 }, workspace: t.workspace }));
      expect(result?.ok && result.value).toBe(2);
    } finally {
      await t.stop();
    }
  });
});
