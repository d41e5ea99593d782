import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Settings } from '@nodwyn/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeNodwyn } from '../../test/fake-nodwyn.js';
import { systemClock } from './clock.js';
import { nodeConfigStore } from './config-store.js';
import { parseServeFile } from './daemon-endpoint.js';
import { DaemonSupervisor } from './daemon-supervisor.js';
import { nodeDaemonSpawner } from './node-daemon-spawner.js';
import { saveSettings, type SettingsValidator } from './settings-saver.js';

const OLD_CONFIG = '# my config, by hand\n[model]\nname = "scripted"  # keep this comment\n\n[serve]\nport = 7420\n';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: gone.
    return false;
  }
}

/**
 * A real supervisor over the fake `nodwyn serve` script in a temp NODWYN_HOME holding OLD_CONFIG; with
 * `attach`, a daemon started beforehand (as by `nodwyn serve` in a terminal) that the supervisor attaches to.
 */
async function running(options: { attach?: boolean } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'nodwyn-home-'));
  const cli = fakeNodwyn();
  const file = join(home, 'config.toml');
  writeFileSync(file, OLD_CONFIG);
  const spawn = nodeDaemonSpawner(cli.command);
  if (options.attach) {
    const outside = spawn(home);
    cleanups.push(() => outside.stop());
    await outside.ready;
  }
  const supervisor = new DaemonSupervisor({
    home,
    spawn,
    readServeFile: async (dir) => parseServeFile(await readFile(join(dir, 'serve.json'), 'utf8').catch(() => '')),
    clock: systemClock,
    isAlive,
    terminate: (pid) => process.kill(pid, 'SIGTERM'),
  });
  cleanups.push(() => rmSync(home, { recursive: true, force: true }), () => rmSync(cli.dir, { recursive: true, force: true }), () => supervisor.stop());
  expect(await supervisor.start()).toMatchObject({ state: 'running' });
  const validated: Settings[] = [];
  // The daemon's own `_nodwyn/settings/validate` is stood in for: it refuses `[model] name = "nope"`.
  const validate: SettingsValidator = async (settings) => {
    validated.push(settings);
    return settings.model?.name === 'nope'
      ? { ok: false, envelope: { status: 'error', category: 'VALIDATION_FAILED', code: 'CONFIG_INVALID', remediation: 'model.name "nope" names no provider.' } as never }
      : { ok: true };
  };
  return { home, file, supervisor, validate, validated, config: nodeConfigStore(file) };
}

describe('saveSettings', () => {
  it('refuses settings the daemon calls invalid without touching config.toml or the daemon', async () => {
    const { file, supervisor, validate, config } = await running();
    const pid = supervisor.state().pid;
    const outcome = await saveSettings({ model: { name: 'nope' } }, { supervisor, config, validate });
    expect(outcome).toEqual({ ok: false, error: 'model.name "nope" names no provider.', restored: false, state: { state: 'running', pid, crashes: 0 } });
    expect(readFileSync(file, 'utf8')).toBe(OLD_CONFIG);
    expect(existsSync(`${file}.bak`)).toBe(false);
    expect(supervisor.state().pid).toBe(pid);
  });

  it('backs up config.toml, writes the merged settings and restarts the daemon on them', async () => {
    const { file, supervisor, validate, validated, config } = await running();
    const before = supervisor.state().pid;
    const outcome = await saveSettings({ model: { name: 'openai', temperature: 0.2 } }, { supervisor, config, validate });
    expect(outcome).toEqual({ ok: true, state: { state: 'running', pid: expect.any(Number), crashes: 0 } });
    expect(outcome.state.pid).not.toBe(before);
    expect(validated).toEqual([{ model: { name: 'openai', temperature: 0.2 } }]);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(OLD_CONFIG);
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('name = "openai"');
    expect(written).toContain('temperature = 0.2');
    expect(written).toContain('port = 7420');
  });

  it('restores the previous bytes and restarts the previous daemon when the new config does not start', async () => {
    const { file, home, supervisor, validate, config } = await running();
    const before = supervisor.state().pid;
    // Valid to the validator, fatal to the daemon: the case Tendril left the person without a daemon.
    const outcome = await saveSettings({ model: { name: 'scripted', broken: true } }, { supervisor, config, validate });
    expect(outcome).toMatchObject({ ok: false, restored: true, state: { state: 'running', crashes: 0 } });
    if (outcome.ok) throw new Error('expected a failed save');
    expect(outcome.error).toContain('previous config.toml is back');
    expect(outcome.error).toContain('config.toml: [model] broken is not a setting nodwyn knows');
    expect(readFileSync(file, 'utf8')).toBe(OLD_CONFIG);
    expect(outcome.state.pid).not.toBe(before);
    const serve = parseServeFile(readFileSync(join(home, 'serve.json'), 'utf8'));
    expect(serve?.pid).toBe(outcome.state.pid);
    expect(supervisor.state()).toEqual(outcome.state);
  });

  it('refuses when no daemon runs to validate against', async () => {
    const { file, supervisor, validate, config } = await running();
    await supervisor.stop();
    const outcome = await saveSettings({ model: { name: 'openai' } }, { supervisor, config, validate });
    expect(outcome).toMatchObject({ ok: false, restored: false, error: expect.stringContaining('it is stopped') });
    expect(readFileSync(file, 'utf8')).toBe(OLD_CONFIG);
  });

  it('answers the error and changes nothing when config.toml cannot be written', async () => {
    const { file, supervisor, validate, config } = await running();
    const pid = supervisor.state().pid;
    const failing = { ...config, write: async () => Promise.reject(new Error('EACCES: permission denied')) };
    const outcome = await saveSettings({ model: { name: 'openai' } }, { supervisor, config: failing, validate });
    expect(outcome).toMatchObject({ ok: false, restored: false, error: expect.stringContaining('EACCES') });
    expect(readFileSync(file, 'utf8')).toBe(OLD_CONFIG);
    expect(supervisor.state()).toMatchObject({ state: 'running', pid });
  });

  it('with a daemon it attached to (not its child), stops that one and runs its own on the new settings', async () => {
    const { file, home, supervisor, validate, config } = await running({ attach: true });
    const outside = supervisor.state().pid;
    expect(outside).toBe(parseServeFile(readFileSync(join(home, 'serve.json'), 'utf8'))?.pid);
    const outcome = await saveSettings({ model: { name: 'openai' } }, { supervisor, config, validate });
    expect(outcome).toMatchObject({ ok: true, state: { state: 'running' } });
    expect(outcome.state.pid).not.toBe(outside);
    expect(isAlive(outside ?? 0)).toBe(false);
    expect(readFileSync(file, 'utf8')).toContain('name = "openai"');
  });
});
