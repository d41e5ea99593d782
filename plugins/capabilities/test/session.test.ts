import { listProvider, type TestKernel } from '@nodwyn/testing';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { admissionProof, Registry } from '../src/index.js';
import { SLUGIFY, SLUGIFY_V2, startCapabilityKernel } from './kernel.js';

const kernels: TestKernel[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startCapabilityKernel>[0] = {}): Promise<TestKernel> {
  const k = await startCapabilityKernel(options);
  kernels.push(k);
  return k;
}

function toolNames(provider: ReturnType<typeof listProvider>, request: number): string[] {
  return provider.requests[request]!.tools.map((t) => t.name);
}

function outcomes(k: TestKernel, session: string) {
  return k.events(session).filter((e) => e.type === 'tool.completed' || e.type === 'tool.failed' || e.type === 'tool.denied');
}

describe('a scripted session that extends itself', () => {
  it('lists (empty), registers with examples, executes, and from the next turn calls the capability as its own tool', async () => {
    const k = await start();
    const provider = listProvider([
      { toolCalls: [{ name: 'list_capabilities', args: {} }] },
      { toolCalls: [{ name: 'register_capability', args: SLUGIFY }] },
      { toolCalls: [{ name: 'execute_capability', args: { name: 'slugify', args: { text: 'Self Extension' } } }] },
      { text: 'done' },
    ]);
    const session = k.session();
    const first = await k.run('make a slug tool', { provider, session });
    expect(first).toMatchObject({ reason: 'answer' });
    const [listed, registered, executed] = outcomes(k, session);
    expect(listed!.payload.content).toMatch(/No capabilities are registered yet/);
    expect(registered!.type).toBe('tool.completed');
    expect(registered!.payload.content).toMatch(/Admitted capability slugify version 1 .*2 examples passed/);
    expect(executed!.payload.content).toBe('self-extension');
    expect(k.events(session).some((e) => e.type === 'capability.admitted' && e.payload.name === 'slugify' && e.payload.version === 1)).toBe(true);
    // The tool list of a turn is fixed when it starts: slugify is not offered in the turn that made it.
    expect(toolNames(provider, 0)).not.toContain('slugify');

    const second = listProvider([{ toolCalls: [{ name: 'slugify', args: { text: 'Next Turn' } }] }, { text: 'ok' }]);
    await k.run('use it', { provider: second, session });
    expect(toolNames(second, 0)).toContain('slugify');
    const spec = second.requests[0]!.tools.find((t) => t.name === 'slugify')!;
    expect(spec.description).toMatch(/capability v1; grants: none/);
    expect(spec.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(outcomes(k, session).at(-1)!.payload.content).toBe('next-turn');
  });

  it('validates a capability tool\'s arguments in the guard\'s preflight, like any tool', async () => {
    const k = await start();
    expect((await k.apply('register_capability', SLUGIFY)).ok).toBe(true);
    const wrong = await k.apply('slugify', { text: 42 });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) {
      expect(wrong.stage).toBe('preflight');
      expect(wrong.envelope).toMatchObject({ category: 'VALIDATION_FAILED', failed_parameter: '$.text', received_value: "42" });
    }
    const extra = await k.apply('execute_capability', { name: 'slugify', args: { text: 'x', more: 1 } });
    expect(extra.ok).toBe(false);
    if (!extra.ok) expect(extra.envelope).toMatchObject({ category: 'VALIDATION_FAILED', code: 'CAPABILITY_ARGS_INVALID' });
  });

  it('registers a second version, and a person rolls back to the first', async () => {
    const k = await start();
    const session = k.session();
    expect((await k.apply('register_capability', SLUGIFY, { session })).ok).toBe(true);
    const v2 = await k.apply('register_capability', SLUGIFY_V2, { session });
    expect(v2.ok && v2.content).toMatch(/version 2 replaces version 1/);
    expect((await k.apply('slugify', { text: 'A B' })).ok && (await k.apply('slugify', { text: 'A B' }))).toMatchObject({ content: 'a_b' });
    const registry = new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader));
    registry.rollback('slugify', 1, (type, payload) => k.kernel.append(session, { type, actor: 'user', payload }));
    expect(await k.apply('slugify', { text: 'A B' })).toMatchObject({ ok: true, content: 'a-b' });
    expect(registry.history('slugify').map((v) => `${v.version}:${v.status}`)).toEqual(['1:active', '2:active']);
    expect(registry.head('slugify')).toEqual({ current: 1, latest: 2, status: 'active' });
    const listed = await k.apply('list_capabilities', {});
    expect(listed.ok && JSON.parse(listed.content)).toEqual([
      { name: 'slugify', description: SLUGIFY.description, input: 'text: string (required)', version: 1, grants: 'none', runner: 'quickjs' },
    ]);
  });

  it('keeps a capability registered in one session for the next session of a later process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nodwyn-caps-'));
    dirs.push(dir);
    const dbPath = join(dir, 'log.db');
    const key = randomBytes(32);
    const first = await startCapabilityKernel({ dbPath, key });
    expect((await first.apply('register_capability', SLUGIFY)).ok).toBe(true);
    await first.stop();
    const later = await start({ dbPath, key });
    const provider = listProvider([{ toolCalls: [{ name: 'slugify', args: { text: 'Second Process' } }] }, { text: 'ok' }]);
    const session = later.session();
    await later.run('slug please', { provider, session });
    expect(toolNames(provider, 0)).toContain('slugify');
    expect(outcomes(later, session)[0]!.payload.content).toBe('second-process');
  });

  it('never executes an unregistered name or a file dropped into the workspace', async () => {
    const k = await start();
    const evil = "export default () => 'pwned'";
    mkdirSync(join(k.workspace, '.nodwyn', 'capabilities'), { recursive: true });
    writeFileSync(join(k.workspace, '.nodwyn', 'capabilities', 'evil.ts'), evil);
    writeFileSync(join(k.workspace, 'evil.ts'), evil);
    writeFileSync(join(k.workspace, 'evil.js'), evil);
    mkdirSync(join(k.workspace, 'capabilities'));
    writeFileSync(join(k.workspace, 'capabilities', 'evil.ts'), evil);
    const byName = await k.apply('execute_capability', { name: 'evil', args: {} });
    expect(byName).toMatchObject({ ok: false, envelope: { category: 'NOT_FOUND', code: 'CAPABILITY_NOT_FOUND' } });
    const asTool = await k.apply('evil', {});
    expect(asTool).toMatchObject({ ok: false, envelope: { code: 'TOOL_UNKNOWN' } });
    const listed = await k.apply('list_capabilities', {});
    expect(listed.ok && listed.content).toMatch(/No capabilities/);
    expect(k.kernel.primitives.list().map((p) => p.name)).not.toContain('evil');
  });

  it('asks about execute_capability by the capability it runs, so "always" covers that capability only', async () => {
    const k = await start();
    expect((await k.apply('register_capability', SLUGIFY, { confirm: true })).ok).toBe(true);
    k.kernel.stages.add('test', { name: 'ask-runs', slot: 'policy', check: (call) => (call.name === 'execute_capability' ? { kind: 'confirm', reason: 'run a capability' } : { kind: 'allow' }) });
    const session = k.session();
    const effects: string[] = [];
    const always = { confirm: async (request: { effect: string }) => (effects.push(request.effect), { granted: true, by: 'test', option: 'allow_always' as const }) };
    for (const text of ['One', 'Two']) {
      const result = await k.apply('execute_capability', { name: 'slugify', args: { text } }, { session, confirm: always });
      expect(result.ok).toBe(true);
    }
    expect(effects).toEqual(['capability:slugify']);
    expect(k.events(session).filter((e) => e.type === 'confirmation.decided').map((e) => e.payload.by)).toEqual(['test', 'approval']);
  });
});
