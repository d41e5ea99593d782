import { startTestKernel, type TestKernel } from '@nodwyn/testing';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRunner } from '../src/index.js';
import { HOST_PLUGINS } from './host-plugins.js';

/** nodwyn's data folder inside the workspace, known to the kernel but not to this runner (no `forbidden`). */
let t: TestKernel;
let root: string;
const runner = createNodeRunner({ networkCut: true });

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'nodwyn-node-protected-')));
  const workspace = join(root, 'ws');
  mkdirSync(join(workspace, 'parent', 'home'), { recursive: true });
  writeFileSync(join(workspace, 'parent', 'home', 'log.key'), 'key');
  t = await startTestKernel({ plugins: HOST_PLUGINS, workspace, dataDir: join(workspace, 'parent', 'home') });
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
    limits: { timeoutMs: 30_000 },
  });
}

describe("Node runner: nodwyn's folders stay out of reach with read and write granted", () => {
  it('refuses the data folder at the door through the file tools, though the runner itself was not told of it', async () => {
    const read = await run("export default (a, nodwyn) => nodwyn.readFile('parent/home/log.key')");
    expect(!read.ok && read.envelope.code).toBe('PATH_PROTECTED');
    const write = await run("export default (a, nodwyn) => nodwyn.writeFile('parent/home/bindings.toml', 'x')");
    expect(!write.ok && write.envelope.code).toBe('PATH_PROTECTED');
    expect(existsSync(join(t.workspace, 'parent', 'home', 'bindings.toml'))).toBe(false);
  });

  it('cannot rename a parent of the data folder and walk in: the child has no file permission', async () => {
    const [from, to] = [join(t.workspace, 'parent'), join(t.workspace, 'moved')].map((path) => JSON.stringify(path));
    const result = await run(`import fs from 'node:fs'; export default async (a, nodwyn) => { fs.renameSync(${from}, ${to}); return nodwyn.readFile('moved/home/log.key'); }`);
    expect(!result.ok && result.envelope.code).toBe('SANDBOX_ACCESS_DENIED');
    expect(readFileSync(join(t.workspace, 'parent', 'home', 'log.key'), 'utf8')).toBe('key');
  });
});
