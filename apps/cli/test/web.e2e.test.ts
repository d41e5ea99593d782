import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliSandbox } from './cli.js';

/** Fetches without following redirects, so the login's 303 and its cookie are seen. */
function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', headers, signal: AbortSignal.timeout(5000) });
}

describe('nodwyn web, as a real process', () => {
  let sandbox: CliSandbox;

  beforeAll(() => {
    sandbox = new CliSandbox();
  });
  afterAll(async () => {
    // Whatever happened, no daemon outlives the suite.
    await sandbox.runAsync(['serve', '--stop']);
    sandbox.remove();
  });

  it('--no-open starts the daemon, prints a one-time login link as the last stdout line, and logs a browser in once', async () => {
    const run = await sandbox.runAsync(['web', '--no-open', '--port', '0']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(sandbox.home, 'serve.json'))).toBe(true);
    const serve = JSON.parse(readFileSync(join(sandbox.home, 'serve.json'), 'utf8')) as { http: string; token: string };
    const link = run.stdout.trimEnd().split('\n').at(-1)!;
    expect(link).toMatch(new RegExp(`^${serve.http}login\\?t=[A-Za-z0-9_-]+$`));
    expect(run.stdout).not.toContain(serve.token);
    expect(run.stderr).toContain('starting the daemon');
    expect((await get(serve.http)).status).toBe(401);
    const login = await get(link);
    expect(login.status).toBe(303);
    const setCookie = login.headers.getSetCookie()[0]!;
    expect(setCookie).toMatch(/^nodwyn_session=[^;]+; HttpOnly; SameSite=Strict; Path=\/$/);
    const cookie = setCookie.split(';')[0]!;
    // The cookie is a login: the console's page, or, when this build has no bundle, the envelope saying so.
    const page = await get(serve.http, { cookie });
    if (existsSync(join(BIN, '..', '..', 'dist', 'web', 'index.html'))) expect(page.status).toBe(200);
    else expect([page.status, ((await page.json()) as { code: string }).code]).toEqual([404, 'WEB_BUNDLE_MISSING']);
    expect((await get(`${serve.http}anything`, { cookie })).status).toBe(404);
    expect((await get(link)).status).toBe(401);
  });

  it('reuses the running daemon and opens $BROWSER with the link, printing no token', async () => {
    const got = join(sandbox.root, 'browser-got');
    const browser = sandbox.write(join(sandbox.root, 'browser.sh'), `#!/bin/sh\nprintf '%s' "$1" > ${got}\n`);
    chmodSync(browser, 0o755);
    const pidBefore = (JSON.parse(readFileSync(join(sandbox.home, 'serve.json'), 'utf8')) as { pid: number }).pid;
    const run = await sandbox.runAsync(['web'], undefined, { BROWSER: browser });
    expect(run.code, run.stderr).toBe(0);
    const link = readFileSync(got, 'utf8');
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?t=[A-Za-z0-9_-]+$/);
    const token = new URL(link).searchParams.get('t')!;
    expect(run.stdout).not.toContain(token);
    expect(run.stderr).not.toContain(token);
    expect(run.stderr).toContain('opened the web console');
    expect(run.stderr).not.toContain('starting the daemon');
    expect((JSON.parse(readFileSync(join(sandbox.home, 'serve.json'), 'utf8')) as { pid: number }).pid).toBe(pidBefore);
    expect((await get(link)).status).toBe(303);
  });

  it('nodwyn serve --stop stops the daemon nodwyn web started', async () => {
    const stop = await sandbox.runAsync(['serve', '--stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(existsSync(join(sandbox.home, 'serve.json'))).toBe(false);
  });
});

describe('nodwyn serve with [serve] in config.toml', () => {
  let sandbox: CliSandbox;
  beforeAll(() => {
    sandbox = new CliSandbox();
  });
  afterAll(async () => {
    await sandbox.runAsync(['serve', '--stop']);
    sandbox.remove();
  });

  it('refuses a host beyond loopback without TLS, naming the keys', async () => {
    writeFileSync(join(sandbox.home, 'config.toml'), '[serve]\nhost = "0.0.0.0"\n');
    const run = await sandbox.runAsync(['serve', '--port', '0']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('TLS_REQUIRED');
    expect(run.stderr).toContain('tls_cert');
    expect(existsSync(join(sandbox.home, 'serve.json'))).toBe(false);
  });

  it('refuses one TLS file without the other', async () => {
    writeFileSync(join(sandbox.home, 'config.toml'), '[serve]\ntls_cert = "/nowhere/cert.pem"\n');
    const run = await sandbox.runAsync(['serve', '--port', '0']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('tls_key');
  });
});

describe('plain nodwyn with [distribution] frontend = "web"', () => {
  let sandbox: CliSandbox;
  beforeAll(() => {
    sandbox = new CliSandbox();
  });
  afterAll(async () => {
    await sandbox.runAsync(['serve', '--stop']);
    sandbox.remove();
  });

  it('starts the daemon first, then the web front end opens the browser with a login link', async () => {
    writeFileSync(join(sandbox.home, 'config.toml'), '[distribution]\nfrontend = "web"\n');
    const got = join(sandbox.root, 'browser-got');
    const browser = sandbox.write(join(sandbox.root, 'browser.sh'), `#!/bin/sh\nprintf '%s' "$1" > ${got}\n`);
    chmodSync(browser, 0o755);
    const run = sandbox.inTerminal([], { BROWSER: browser });
    expect(await run.exited, run.output()).toBe(0);
    const serve = JSON.parse(readFileSync(join(sandbox.home, 'serve.json'), 'utf8')) as { http: string };
    const link = readFileSync(got, 'utf8');
    expect(link.startsWith(`${serve.http}login?t=`)).toBe(true);
    expect(run.output()).not.toContain(new URL(link).searchParams.get('t')!);
    expect((await get(link)).status).toBe(303);
  });
});
