import type { CliCommand } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { admissionProof, Registry } from '../src/index.js';
import { SLUGIFY, SLUGIFY_V2, startCapabilityKernel } from './kernel.js';

const kernels: TestKernel[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
});

async function withTwoVersions(): Promise<TestKernel> {
  const k = await startCapabilityKernel();
  kernels.push(k);
  expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
  expect((await k.apply('register_capability', SLUGIFY_V2)).ok).toBe(true);
  return k;
}

async function capability(k: TestKernel, args: string[], options: Record<string, unknown> = {}) {
  const command = k.kernel.commands.get('capability').item as CliCommand;
  let stdout = '';
  let stderr = '';
  const code = await command.run({
    args,
    options,
    io: { stdin: Readable.from([]), write: (t) => void (stdout += t), error: (t) => void (stderr += t), interactive: false },
  });
  return { code, stdout, stderr };
}

describe('nodwyn capability', () => {
  it('lists, shows a version with its code, and prints the history with the current one marked', async () => {
    const k = await withTwoVersions();
    const list = await capability(k, ['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^NAME\s+VERSION\s+STATUS\s+RUNNER\s+GRANTS\s+DESCRIPTION\nslugify\s+v2\s+active\s+quickjs\s+none\s+Turns text into a lowercase slug joined/);
    const shown = await capability(k, ['show', 'slugify'], { version: '1' });
    expect(shown.stdout).toContain('slugify v1: active');
    expect(shown.stdout).toContain(SLUGIFY.code);
    expect((await capability(k, ['show', 'slugify'])).stdout).toContain('slugify v2 (current): active');
    const json = JSON.parse((await capability(k, ['history', 'slugify'], { json: true })).stdout) as { version: number; current: boolean; code?: string }[];
    expect(json.map((v) => [v.version, v.current])).toEqual([[1, false], [2, true]]);
    expect(json[0]!.code).toBeUndefined();
    expect((await capability(k, ['history', 'slugify'])).stdout).toMatch(/\* v2\s+active/);
  });

  it('rolls back, disables and removes as logged changes; a disabled capability neither runs nor is offered', async () => {
    const k = await withTwoVersions();
    expect(await capability(k, ['rollback', 'slugify'], { to: '1' })).toMatchObject({ code: 0, stdout: 'slugify: version 1 is current (active).\n' });
    expect(await k.apply('slugify', { text: 'A B' })).toMatchObject({ ok: true, content: 'a-b' });

    expect((await capability(k, ['disable', 'slugify'])).stdout).toMatch(/disabled as version 3/);
    expect(await k.apply('execute_capability', { name: 'slugify', args: { text: 'x' } })).toMatchObject({ ok: false, envelope: { code: 'CAPABILITY_DISABLED' } });
    expect(await k.apply('slugify', { text: 'x' })).toMatchObject({ ok: false, envelope: { code: 'TOOL_UNKNOWN' } });
    expect(k.kernel.primitives.list().map((p) => p.name)).not.toContain('slugify');
    const disabled = new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader)).version('slugify', 3)!;
    expect(disabled).toMatchObject({ status: 'disabled', author: 'person', note: 'disabled by a person', code: SLUGIFY.code });

    expect((await capability(k, ['rollback', 'slugify'], { to: '2' })).code).toBe(0);
    expect(await k.apply('slugify', { text: 'A B' })).toMatchObject({ ok: true, content: 'a_b' });
    expect((await capability(k, ['rm', 'slugify'])).stdout).toMatch(/removed as version 4/);
    expect(await k.apply('execute_capability', { name: 'slugify', args: { text: 'x' } })).toMatchObject({ ok: false, envelope: { code: 'CAPABILITY_DISABLED' } });

    const changes = (events: ReturnType<TestKernel['events']>) => events.filter((e) => e.type.startsWith('capability.')).map((e) => `${e.type} v${String(e.payload.version)}`);
    // The model's admissions are logged in its session; each of the person's commands in a session of its
    // own (sessions list the most recently written first).
    expect(changes(k.events('test'))).toEqual(['capability.admitted v1', 'capability.admitted v2']);
    const commands = k.kernel.sessions.list().filter((s) => s.id !== 'test').reverse();
    expect(commands.map((s) => s.title)).toEqual([
      '@nodwyn/plugin-capabilities: capability rollback slugify --to 1',
      '@nodwyn/plugin-capabilities: capability disable slugify',
      '@nodwyn/plugin-capabilities: capability rollback slugify --to 2',
      '@nodwyn/plugin-capabilities: capability rm slugify',
    ]);
    expect(commands.flatMap((s) => changes(k.events(s.id)))).toEqual([
      'capability.rolled_back v1',
      'capability.disabled v3',
      'capability.rolled_back v2',
      'capability.removed v4',
    ]);
  });

  it('tests the current version\'s examples again through the guard, in a session of its own', async () => {
    const k = await withTwoVersions();
    const result = await capability(k, ['test', 'slugify']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok    example 1\nslugify v2: 1 of 1 examples passed \(session .+\)\.\n$/);
    const session = /session (.+)\)/.exec(result.stdout)![1]!;
    expect(k.events(session).map((e) => e.type)).toEqual(['session.created', 'tool.completed']);
  });

  it('admits a person\'s edit through the same gate, as a new version by "person"; a failing edit changes nothing', async () => {
    const k = await withTwoVersions();
    const dir = mkdtempSync(join(tmpdir(), 'nodwyn-edit-'));
    try {
      writeFileSync(join(dir, 'good.ts'), "export default (a: { text: string }) => a.text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).join('_');");
      writeFileSync(join(dir, 'bad.ts'), "export default (a: { text: string }) => a.text;");
      const edited = await capability(k, ['edit', 'slugify'], { code: join(dir, 'good.ts'), description: 'Edited by hand.' });
      expect(edited.code).toBe(0);
      expect(edited.stdout).toMatch(/Admitted capability slugify version 3 replaces version 2/);
      const registry = new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader));
      expect(registry.current('slugify')).toMatchObject({ version: 3, author: 'person', description: 'Edited by hand.' });
      const bad = await capability(k, ['edit', 'slugify'], { code: join(dir, 'bad.ts') });
      expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/CAPABILITY_EXAMPLE_FAILED/) });
      expect(registry.head('slugify')).toEqual({ current: 3, latest: 3, status: 'active' });
      expect(await capability(k, ['edit', 'slugify'], { code: join(dir, 'missing.ts') })).toMatchObject({ code: 2, stderr: expect.stringMatching(/--code .*missing\.ts/) });
      expect(await capability(k, ['edit', 'slugify'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--code, --description or --examples/) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers usage mistakes with exit 2 and unknown names with an envelope', async () => {
    const k = await withTwoVersions();
    expect(await capability(k, [])).toMatchObject({ code: 2, stderr: expect.stringMatching(/name an action/) });
    expect(await capability(k, ['frobnicate', 'x'])).toMatchObject({ code: 2 });
    expect(await capability(k, ['rollback', 'slugify'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--to N/) });
    expect(await capability(k, ['show', 'slugify'], { version: '9' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/versions 1 to 2/) });
    await expect(capability(k, ['history', 'nope'])).rejects.toMatchObject({ envelope: { code: 'CAPABILITY_NOT_FOUND' } });
    await expect(capability(k, ['rollback', 'slugify'], { to: '7' })).rejects.toMatchObject({ envelope: { code: 'CAPABILITY_VERSION_NOT_FOUND' } });
  });
});
