import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuickjsRunner } from '../src/index.js';

/** nodwyn's data folder inside the workspace, as with NODWYN_HOME=$PWD/state: known to the kernel, not to the runner. */
let t: TestKernel;
let root: string;
const runner = createQuickjsRunner();

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-quickjs-protected-')));
  const workspace = join(root, 'ws');
  mkdirSync(join(workspace, 'state'), { recursive: true });
  writeFileSync(join(workspace, 'state', 'log.key'), 'key');
  symlinkSync(join(workspace, 'state'), join(workspace, 'alias'));
  t = await startTestKernel({ plugins: [toolsCorePlugin], workspace, dataDir: join(workspace, 'state') });
});
afterAll(async () => {
  await t?.stop();
  rmSync(root, { recursive: true, force: true });
});

function run(code: string) {
  return runner.run({
    session: 'protected',
    code,
    args: {},
    grants: { read: true, write: true },
    workspace: t.workspace,
    signal: new AbortController().signal,
    apply: (name, args, o = {}) => t.kernel.apply({ session: 'protected', name, args, origin: 'host', taint: o.taint ?? [] }),
  });
}

describe("QuickJS runner: nodwyn's data folder stays out of reach of the file doors", () => {
  it.each(['state/log.key', 'STATE/log.key', 'alias/log.key', 'x/../state/log.key'])('refuses readFile(%s) with PATH_PROTECTED', async (path) => {
    const result = await run(`export default (a, nodwyn) => nodwyn.readFile(${JSON.stringify(path)})`);
    expect(!result.ok && result.envelope.code).toBe('PATH_PROTECTED');
  });

  it('refuses writeFile into it, and nothing is written', async () => {
    const result = await run("export default (a, nodwyn) => nodwyn.writeFile('alias/bindings.toml', 'x')");
    expect(!result.ok && result.envelope.code).toBe('PATH_PROTECTED');
    expect(existsSync(join(t.workspace, 'state', 'bindings.toml'))).toBe(false);
  });
});
