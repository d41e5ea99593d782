import { definePlugin } from '@nodwyn/plugin-api';
import { describeFrontendConformance, frontendLaunch } from '@nodwyn/testing';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { frontendWebPlugin } from './plugin.js';
import { webBundleDir } from './web-bundle-dir.js';
import { webFrontend } from './web-frontend.js';

/** Writes to a string, as stdout or stderr. */
function sink() {
  const out = { text: '', write: (t: string) => (out.text += t) };
  return out;
}

const quiet = { env: {}, platform: 'linux' as const, stdout: sink(), stderr: sink() };
describeFrontendConformance(
  definePlugin({
    manifest: frontendWebPlugin.manifest,
    register(ctx) {
      ctx.frontends.register(webFrontend(quiet));
    },
  }),
);

describe('the web front end', () => {
  const folder = mkdtempSync(join(tmpdir(), 'nodwyn-web-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('needs the daemon, and its plugin provides frontend:web', () => {
    expect(webFrontend().daemon).toBe(true);
    expect(frontendWebPlugin.manifest.provides).toEqual(['frontend:web']);
  });

  it('with --no-open prints the login link as the last stdout line, notes on stderr', async () => {
    const stdout = sink();
    const stderr = sink();
    const { launch, client } = frontendLaunch({ workspace: folder, args: ['--no-open'] });
    expect(await webFrontend({ env: { BROWSER: 'false' }, stdout, stderr }).start(launch)).toBe(0);
    expect(client.calls.map((c) => c.method)).toEqual(['loginLink']);
    expect(stdout.text.trimEnd().split('\n').at(-1)).toBe('http://127.0.0.1:7420/login?t=recorded');
    expect(stderr.text).not.toContain('t=recorded');
  });

  it('opens the link with $BROWSER and prints no link', async () => {
    const got = join(folder, 'got');
    const browser = join(folder, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${got}\n`);
    chmodSync(browser, 0o755);
    const stdout = sink();
    const stderr = sink();
    const { launch } = frontendLaunch({ workspace: folder, args: [] });
    expect(await webFrontend({ env: { BROWSER: browser }, stdout, stderr }).start(launch)).toBe(0);
    expect(readFileSync(got, 'utf8')).toBe('http://127.0.0.1:7420/login?t=recorded');
    expect(stdout.text + stderr.text).not.toContain('t=recorded');
  });

  it('prints the link when no browser can be opened (no display)', async () => {
    const stdout = sink();
    const { launch } = frontendLaunch({ workspace: folder, args: [] });
    await webFrontend({ env: {}, platform: 'linux', stdout, stderr: sink() }).start(launch);
    expect(stdout.text).toBe('http://127.0.0.1:7420/login?t=recorded\n');
  });

  it('finds the bundle folder in this package', () => {
    expect(webBundleDir()).toBe(join(import.meta.dirname, '..', 'dist', 'web'));
  });
});
