import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION, definePlugin } from '@nodwyn/plugin-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boot, openRuntime, type Runtime, type RuntimeOptions } from '../src/index.js';
import { entry, RuntimeFixture } from './fixture.js';

let fx: RuntimeFixture;
let notices: string[];
let runtime: Runtime | undefined;
beforeEach(() => {
  fx = new RuntimeFixture();
  notices = [];
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  fx.remove();
});

function options(overrides: Partial<RuntimeOptions> = {}): RuntimeOptions {
  return { distribution: { name: 'test', plugins: [entry(fx.plugin('notes'))] }, onNotice: (line) => notices.push(line), env: fx.env, ...overrides };
}

async function open(overrides: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  runtime = await openRuntime(options(overrides));
  return runtime;
}

describe('openRuntime: many workspaces over one log', () => {
  it('gives each workspace its own kernel and plugins, all writing to the one shared log', async () => {
    const rt = await open();
    const [a, b] = await Promise.all([rt.scope(fx.workspace('a')), rt.scope(fx.workspace('b'))]);
    expect([a.workspace, b.workspace]).toEqual([join(fx.root, 'a'), join(fx.root, 'b')]);
    expect(a.kernel).not.toBe(b.kernel);
    const inA = a.kernel.sessions.create({ workspace: a.workspace });
    const inB = b.kernel.sessions.create({ workspace: b.workspace });
    expect(rt.log.read(inA)[0]?.type).toBe('session.created');
    const listed = b.kernel.sessions.list().map((s) => [s.id, s.workspace]);
    expect(listed.sort()).toEqual([
      [inA, a.workspace],
      [inB, b.workspace],
    ].sort());
    expect(fx.seen).toEqual([`start notes ${a.workspace} {}`, `start notes ${b.workspace} {}`]);
  });

  it('boots a workspace once: concurrent calls and any path to it share one scope', async () => {
    const rt = await open();
    const ws = fx.workspace('ws');
    symlinkSync(ws, join(fx.root, 'link'));
    const scopes = await Promise.all([rt.scope(ws), rt.scope(ws), rt.scope(join(fx.root, 'link'))]);
    expect(scopes[1]).toBe(scopes[0]);
    expect(scopes[2]).toBe(scopes[0]);
    expect(fx.seen).toHaveLength(1);
  });

  it('does not keep a failed boot: the next call boots again', async () => {
    let starts = 0;
    const flaky = fx.plugin('flaky');
    const failsFirst = { ...flaky, start: () => (++starts === 1 ? Promise.reject(new Error('not yet')) : undefined) };
    const rt = await open({ distribution: { name: 'test', plugins: [entry(failsFirst)] } });
    const ws = fx.workspace('ws');
    await expect(rt.scope(ws)).rejects.toMatchObject({ envelope: { plugin: 'flaky' } });
    expect((await rt.scope(ws)).host.report()[0]?.state).toBe('started');
    expect(starts).toBe(2);
  });

  it('boots again after a failure once the cause is gone', async () => {
    const rt = await open();
    const ws = fx.workspace('ws', { 'config.toml': '[budgets]\nmax_turns = "many"\n' });
    fx.trust(ws);
    await expect(rt.scope(ws)).rejects.toMatchObject({ envelope: { code: 'CONFIG_INVALID' } });
    fx.workspace('ws', { 'config.toml': '[budgets]\nmax_turns = 3\n' });
    fx.trust(ws);
    expect((await rt.scope(ws)).config.budgets).toEqual({ max_turns: 3 });
  });

  it('closing one scope stops its plugins and leaves the log open for the others', async () => {
    const rt = await open();
    const a = await rt.scope(fx.workspace('a'));
    const b = await rt.scope(fx.workspace('b'));
    await a.close();
    expect(fx.seen.at(-1)).toBe(`stop notes ${a.workspace}`);
    expect(b.kernel.sessions.create({ workspace: b.workspace })).toMatch(/./);
    expect(await rt.scope(a.workspace)).not.toBe(a);
  });

  it('close stops every scope, closes the log, and refuses new scopes', async () => {
    const rt = await open();
    const a = await rt.scope(fx.workspace('a'));
    const booting = rt.scope(fx.workspace('b'));
    await rt.close();
    await booting;
    expect(fx.seen.filter((line) => line.startsWith('stop')).sort()).toEqual([`stop notes ${a.workspace}`, `stop notes ${join(fx.root, 'b')}`]);
    expect(() => rt.log.read('any')).toThrow();
    await expect(rt.scope(a.workspace)).rejects.toMatchObject({ envelope: { code: 'RUNTIME_CLOSED' } });
  });

  it('refuses a workspace that is not a folder with WORKSPACE_NOT_FOUND', async () => {
    const rt = await open();
    await expect(rt.scope(join(fx.root, 'missing'))).rejects.toMatchObject({ envelope: { code: 'WORKSPACE_NOT_FOUND', category: 'NOT_FOUND' } });
  });

  it('reads the user config and fails with its envelope before touching the log', async () => {
    fx.userConfig('[budgets\n');
    await expect(openRuntime(options())).rejects.toMatchObject({ envelope: { code: 'CONFIG_INVALID_TOML' } });
  });
});

describe('a workspace scope\'s settings', () => {
  it('ignores an untrusted repository config whole, with a notice', async () => {
    const rt = await open();
    const scope = await rt.scope(fx.workspace('ws', { 'config.toml': '[budgets]\nmax_turns = 3\n' }));
    expect(scope.config).toEqual({});
    expect(notices).toEqual(['ignoring .nodwyn/config.toml (not trusted; review it and run `nodwyn trust`)']);
  });

  it('merges a trusted one, and drops the section of a plugin whose manifest says userOnlyConfig', async () => {
    fx.userConfig('[plugins.vault]\nurl = "https://mine.example"\n');
    const vault = fx.plugin('vault', { userOnlyConfig: true });
    const rt = await open({ distribution: { name: 'test', plugins: [entry(fx.plugin('notes')), entry(vault)] } });
    const ws = fx.workspace('ws', { 'config.toml': '[plugins.notes]\nmax = 2\n\n[plugins.vault]\nurl = "https://evil.example"\n' });
    fx.trust(ws);
    const scope = await rt.scope(ws);
    expect(scope.config.plugins).toEqual({ vault: { url: 'https://mine.example' }, notes: { max: 2 } });
    expect(fx.seen).toEqual([`start notes ${ws} {"max":2}`, `start vault ${ws} {"url":"https://mine.example"}`]);
    expect(notices).toEqual(['ignoring plugins.vault.url in .nodwyn/config.toml (only your own config may set them)']);
  });

  it("tells its plugins the repository's trust and the person's config folder", async () => {
    const seen: string[] = [];
    const probe = definePlugin({
      manifest: { name: 'probe', version: '1.0.0', apiVersion: `^${API_VERSION}` },
      register: (ctx) => void seen.push(`${ctx.trust} ${ctx.configDir}`),
    });
    const rt = await open({ distribution: { name: 'test', plugins: [entry(probe)] } });
    const files = { 'instructions.md': 'Keep commits small.\n' };
    const [plain, untrusted, trusted] = [fx.workspace('plain'), fx.workspace('untrusted', files), fx.workspace('trusted', files)];
    fx.trust(trusted);
    for (const ws of [plain, untrusted, trusted]) await rt.scope(ws);
    expect(seen).toEqual([`none ${fx.home}`, `untrusted ${fx.home}`, `trusted ${fx.home}`]);
  });

  it('applies the runtime\'s overrides last, and sends a scope\'s notices where the scope asks', async () => {
    const rt = await open({ overrides: (config) => ({ ...config, judge: { mode: 'on' } }) });
    const own: string[] = [];
    const scope = await rt.scope(fx.workspace('ws', { 'config.toml': '[budgets]\nmax_turns = 3\n' }), { onNotice: (line) => own.push(line) });
    expect(scope.config).toEqual({ judge: { mode: 'on' } });
    expect([own.length, notices.length]).toEqual([1, 0]);
  });

  it('takes the plugin list and its disabled plugins from the user config alone', async () => {
    fx.userConfig('[distribution]\ndisabled = ["optional-one"]\n');
    let imported = false;
    const optional = { ...entry(fx.plugin('optional-one'), () => ((imported = true), fx.plugin('optional-one'))), optional: true };
    const rt = await open({ distribution: (config) => ({ name: 'made', plugins: [entry(fx.plugin('notes')), optional], defaultFrontend: config.distribution?.frontend }) });
    const ws = fx.workspace('ws', { 'config.toml': '[distribution]\ndisabled = []\n' });
    fx.trust(ws);
    const scope = await rt.scope(ws);
    expect(scope.host.report().map((p) => [p.name, p.state])).toEqual([
      ['notes', 'started'],
      ['optional-one', 'disabled'],
    ]);
    expect(imported).toBe(false);
    expect(notices).toEqual(['ignoring distribution.disabled in .nodwyn/config.toml (only your own config may set them)']);
  });
});

describe('boot', () => {
  it('boots one workspace whose close closes the runtime and its log', async () => {
    const scope = await boot({ ...options(), workspace: fx.workspace('ws') });
    const session = scope.kernel.sessions.create({ workspace: scope.workspace });
    await scope.close();
    expect(fx.seen).toEqual([`start notes ${scope.workspace} {}`, `stop notes ${scope.workspace}`]);
    expect(() => scope.kernel.log.read(session)).toThrow();
  });
});

describe('Runtime.restart', () => {
  it("re-boots every booted workspace with config.toml as it is now, and keeps serving", async () => {
    fx.userConfig('[plugins.notes]\ncolor = "red"\n');
    const rt = await open();
    const ws = fx.workspace('ws');
    const before = await rt.scope(ws);
    fx.userConfig('[plugins.notes]\ncolor = "blue"\n');
    expect(await rt.restart()).toBe(1);
    const after = await rt.scope(ws);
    expect(after).not.toBe(before);
    expect(rt.config.plugins).toEqual({ notes: { color: 'blue' } });
    expect(fx.seen).toEqual([`start notes ${before.workspace} {"color":"red"}`, `stop notes ${before.workspace}`, `start notes ${before.workspace} {"color":"blue"}`]);
    expect(after.kernel.sessions.create({ workspace: after.workspace })).toBeTruthy();
    await rt.close();
    await expect(rt.restart()).rejects.toMatchObject({ envelope: { code: 'RUNTIME_CLOSED' } });
  });
});
