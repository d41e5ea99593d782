import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrontendLaunch } from '@nodwyn/plugin-api';
import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describeFrontendConformance } from '@nodwyn/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DESKTOP_APP_ENV, desktopFrontend } from './desktop-frontend.js';
import { frontendElectronPlugin } from './plugin.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An executable standing in for the installed app: writes what it was started with, then runs `body`. */
function fakeApp(body: string): { app: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-desktop-app-'));
  dirs.push(dir);
  const app = join(dir, 'nodwyn-desktop');
  writeFileSync(app, `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(join(dir, 'started.json'))}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), home: process.env.NODWYN_HOME }));\n${body}\n`);
  chmodSync(app, 0o755);
  return { app, dir };
}

function launch(workspace: string, signal = new AbortController().signal): FrontendLaunch {
  return { client: {} as FrontendLaunch['client'], workspace, args: ['--flag'], signal };
}

describe('frontend:desktop', () => {
  it('provides frontend:desktop, a front end that needs the daemon', () => {
    expect(frontendElectronPlugin.manifest.provides).toEqual(['frontend:desktop']);
    expect(desktopFrontend({}, {}).daemon).toBe(true);
  });

  it('fails with an envelope saying how to build and install the app when none is configured', async () => {
    let caught: unknown;
    await desktopFrontend({}, {}).start(launch(tmpdir())).catch((error: unknown) => (caught = error));
    expect(isEnvelopeError(caught)).toBe(true);
    if (!isEnvelopeError(caught)) return;
    expect(caught.envelope).toMatchObject({ category: 'PRECONDITION_FAILED', code: 'DESKTOP_APP_NOT_INSTALLED', plugin: '@nodwyn/plugin-frontend-electron' });
    expect(caught.envelope.remediation).toContain('apps/desktop');
    expect(caught.envelope.remediation).toContain(DESKTOP_APP_ENV);
  });

  it('fails the same way when the configured path holds no app', async () => {
    const missing = join(tmpdir(), 'no-such-nodwyn-desktop');
    await expect(desktopFrontend({ app: missing }, {}).start(launch(tmpdir()))).rejects.toMatchObject({ envelope: { code: 'DESKTOP_APP_NOT_INSTALLED', received_value: missing } });
  });

  it('starts the app named by NODWYN_DESKTOP_APP in the workspace, with the environment, and returns its exit code', async () => {
    const { app, dir } = fakeApp('process.exit(4)');
    const workspace = mkdtempSync(join(tmpdir(), 'nodwyn-ws-'));
    dirs.push(workspace);
    const code = await desktopFrontend({}, { [DESKTOP_APP_ENV]: app, NODWYN_HOME: '/tmp/the-home' }).start(launch(workspace));
    expect(code).toBe(4);
    const started = JSON.parse((await import('node:fs')).readFileSync(join(dir, 'started.json'), 'utf8'));
    expect(started).toEqual({ args: ['--flag'], cwd: workspace, home: '/tmp/the-home' });
  });

  it('the plugin config’s app wins over the environment, and an abort stops the app', async () => {
    const { app } = fakeApp('setInterval(() => {}, 1000)');
    const stop = new AbortController();
    const running = desktopFrontend({ app }, { [DESKTOP_APP_ENV]: '/nowhere' }).start(launch(tmpdir(), stop.signal));
    await new Promise((resolve) => setTimeout(resolve, 300));
    stop.abort();
    expect(await running).toBe(130);
  });
});

// The suite every front end runs, with an installed app that stays open until it is stopped.
const installed = mkdtempSync(join(tmpdir(), 'nodwyn-desktop-installed-'));
const installedApp = join(installed, 'nodwyn-desktop');
writeFileSync(installedApp, `#!${process.execPath}\nsetInterval(() => {}, 1000);\n`);
chmodSync(installedApp, 0o755);
afterAll(() => rmSync(installed, { recursive: true, force: true }));
describeFrontendConformance(frontendElectronPlugin, { settings: { plugins: { '@nodwyn/plugin-frontend-electron': { app: installedApp } } } });
