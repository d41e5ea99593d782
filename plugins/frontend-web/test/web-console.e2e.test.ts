/// <reference lib="dom" />
import { connectDaemon } from '@nodwyn/client/node';
import type { LogEvent } from '@nodwyn/protocol';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { launchBrowser, pngSize } from './browser.js';
import { Daemon, until } from './daemon.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));
const XSS = `<script>window.__xss='script'</script><img src=x onerror="window.__xss='img'"><a href="javascript:window.__xss='link'">x</a>`;
/** The same tricks in the model's own answer, which is rendered as Markdown. */
const XSS_MARKDOWN = `<img src=x onerror="window.__xss='md-img'"> [bad](javascript:window.__xss='md-link') <script>window.__xss='md-script'</script> [good](https://example.com/docs)`;
const SECRET = 'Kq8Vw2Zr5Tn9Lp3Xs7Hd1Mf6Bc4Jg0Ye';

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('the web console in Chromium, against a real nodwyn serve', () => {
  const daemon = new Daemon([
    { text: 'Looking at it with **bold** care.', toolCalls: [{ name: 'shell', args: { command: `printf '%s' '${XSS.replace(/'/g, `'"'"'`)}'` } }] },
    { text: `All done: the output is above. ${XSS_MARKDOWN}` },
  ]);
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let context: BrowserContext;
  let page: Page;
  let sessionId = '';
  const dialogs: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    await daemon.start();
    browser = await launchBrowser();
    context = browser.context;
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => message.text().includes('Content Security Policy') && violations.push(message.text()));
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    daemon.stop();
  });

  async function shoot(name: string): Promise<void> {
    for (const [width, height] of [[1280, 800], [375, 812]] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(150);
      const path = join(SCREENSHOTS, `${name}-${width}x${height}.png`);
      await page.screenshot({ path });
      expect(statSync(path).size).toBeGreaterThan(2000);
      expect(pngSize(path)).toEqual({ width, height });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('answers 401 to every request without the cookie', async () => {
    for (const path of ['/', '/assets/index.js', '/anything']) {
      const response = await fetch(`${daemon.origin}${path}`);
      expect(response.status, path).toBe(401);
    }
  });

  it('logs in through the one-time link (HttpOnly, SameSite=Strict cookie), which is spent after one use', async () => {
    const link = await daemon.loginLink();
    await page.goto(link);
    expect(new URL(page.url()).search).toBe('');
    await page.waitForSelector('.connection-open', { timeout: 10_000 });
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'nodwyn_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).toBe('{}{}');
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(401);
  });

  it('refuses a WebSocket from another origin, even with the cookie', async () => {
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'nodwyn_session');
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(daemon.info.url, { headers: { origin: 'http://evil.example', cookie: `nodwyn_session=${cookie!.value}` } });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => resolve(-1));
    });
    expect(status).toBe(403);
  });

  it('starts a session, streams the answer as Markdown, and answers the confirmation while a second client sees it decided', async () => {
    await page.fill('#workspace', daemon.workspace);
    await page.press('#workspace', 'Enter');
    await page.waitForSelector('#prompt');
    sessionId = decodeURIComponent(new URL(page.url()).hash.replace('#/session/', ''));
    const watcher = await connectDaemon({ home: daemon.home, clientInfo: { name: 'e2e-watcher', version: '1.0.0' }, reconnect: false });
    const seen: LogEvent[] = [];
    watcher.onEvent((event) => event.type === 'log' && seen.push(event.event));
    await watcher.attach(sessionId, 0);
    try {
      await page.fill('#prompt', 'show me the output');
      await page.press('#prompt', 'Enter');
      await page.waitForSelector('.question button', { timeout: 15_000 });
      expect(await page.$$eval('.question button', (buttons) => buttons.map((b) => b.getAttribute('data-option')))).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
      await page.waitForSelector('.vlist strong');
      expect(await page.textContent('.vlist strong')).toBe('bold');
      await shoot('session-question');
      await page.click('.question button[data-option="allow_once"]');
      await until(() => seen.some((e) => e.type === 'confirmation.decided'), 15_000);
      const decided = seen.find((e) => e.type === 'confirmation.decided')!;
      expect(decided.payload).toMatchObject({ granted: true, option: 'allow_once' });
      expect(String(decided.payload.by)).toContain('nodwyn-web');
      await page.waitForFunction(() => document.querySelector('.vlist')?.textContent?.includes('All done'), undefined, { timeout: 15_000 });
      expect(await page.textContent('.vlist')).toContain('answered by');
    } finally {
      await watcher.close();
    }
  });

  it('shows a tool result holding <script>, <img onerror> and a javascript: link as text, and runs none of it', async () => {
    const text = await page.textContent('.vlist');
    expect(text).toContain(XSS);
    expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    expect(await page.$$('.vlist img, .vlist script, .vlist a[href^="javascript"]')).toHaveLength(0);
    expect(dialogs).toEqual([]);
    const links = await page.$$eval('.vlist .markdown a', (as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')]));
    expect(links).toEqual([
      ['bad', null, null],
      ['good', 'https://example.com/docs', 'noopener noreferrer'],
    ]);
    expect(text).toContain(`<img src=x onerror="window.__xss='md-img'">`);
    await shoot('session');
  });

  it('opens the log view with every event and its chain, and verify passes', async () => {
    await page.goto(`${daemon.origin}/#/log/${encodeURIComponent(sessionId)}`);
    await page.waitForSelector('.log-row');
    expect(await page.$$eval('.log-row .type', (rows) => rows.map((r) => r.textContent))).toContain('confirmation.decided');
    await page.click('.toolbar button');
    await page.waitForSelector('.verdict.ok', { timeout: 10_000 });
    expect(await page.textContent('.verdict')).toMatch(/^Verified: \d+ events/);
    await shoot('log');
  });

  it('adds a secret whose value shows nowhere: not in the page, the log database or the daemon output', async () => {
    await page.goto(`${daemon.origin}/#/secrets`);
    await page.fill('#secret-name', 'web-e2e');
    await page.fill('#secret-class', 'control-plane');
    await page.fill('#secret-value', SECRET);
    await page.press('#secret-value', 'Enter');
    await page.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('web-e2e'), undefined, { timeout: 10_000 });
    expect(await page.inputValue('#secret-value')).toBe('');
    expect(await page.content()).not.toContain(SECRET);
    await shoot('secrets');
    for (const file of files(daemon.home)) expect(readFileSync(file).includes(SECRET), file).toBe(false);
    expect(daemon.output).not.toContain(SECRET);
  });

  it('draws the sessions, capabilities, bindings and settings pages, readable at phone width', async () => {
    for (const [name, selector] of [['sessions', 'table.sessions'], ['capabilities', '#cap-workspace'], ['bindings', 'form'], ['settings', 'main form, main .error']] as const) {
      await page.goto(`${daemon.origin}/#/${name}`);
      await page.waitForSelector(selector, { timeout: 10_000 });
      await shoot(name);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, name).toBeLessThanOrEqual(0);
    }
    expect(violations).toEqual([]);
  });

  it('adds and removes a binding with the keyboard, the removal behind a dialog that Escape dismisses', async () => {
    await page.goto(`${daemon.origin}/#/bindings`);
    await page.waitForSelector('#binding-class');
    await page.fill('#binding-class', 'control-plane');
    await page.fill('#binding-host', 'api.example.com');
    await page.fill('#binding-positions', 'header:authorization');
    await page.fill('#binding-methods', 'post');
    await page.press('#binding-methods', 'Enter');
    await page.waitForSelector('table.bindings td:text("api.example.com")', { timeout: 10_000 });
    expect(await page.textContent('table.bindings')).toContain('POST');
    await page.click('table.bindings button.danger');
    await page.waitForSelector('dialog[open]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog', { state: 'detached' });
    expect(await page.$$('table.bindings tbody tr')).toHaveLength(1);
    await page.click('table.bindings button.danger');
    await page.waitForSelector('dialog[open]');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('table.bindings', { state: 'detached', timeout: 10_000 });
  });

  it('validates settings before saving: a bad value shows its envelope and is not written; a good one is saved', async () => {
    await page.goto(`${daemon.origin}/#/settings`);
    const field = '#setting-provider-anthropic-base_url';
    await page.waitForSelector(field, { timeout: 10_000 });
    const before = readFileSync(join(daemon.home, 'config.toml'), 'utf8');
    await page.fill(field, 'ftp://nowhere.example');
    await page.click('main form button[type=submit]');
    await page.waitForSelector('.notices .error', { timeout: 10_000 });
    expect(await page.textContent('.notices .error-code')).toMatch(/VALIDATION_FAILED/);
    expect(readFileSync(join(daemon.home, 'config.toml'), 'utf8')).toBe(before);
    await page.fill(field, 'https://llm.example.com');
    await page.click('main form button[type=submit]');
    await page.waitForFunction(() => document.querySelector('.notices')?.textContent?.startsWith('Saved to'), undefined, { timeout: 20_000 });
    const after = readFileSync(join(daemon.home, 'config.toml'), 'utf8');
    expect(after).toContain('https://llm.example.com');
    expect(after).toContain('scripted');
  });

  it('forks the session at a message and opens the fork', async () => {
    await page.goto(`${daemon.origin}/#/session/${encodeURIComponent(sessionId)}`);
    await page.waitForSelector('.item.user .fork');
    await page.focus('.item.user .fork');
    await page.keyboard.press('Enter');
    await page.waitForFunction((parent) => location.hash.startsWith('#/session/') && !location.hash.endsWith(parent), encodeURIComponent(sessionId), { timeout: 10_000 });
    const forked = decodeURIComponent(new URL(page.url()).hash.replace('#/session/', ''));
    await page.waitForSelector('#prompt');
    const watcher = await connectDaemon({ home: daemon.home, clientInfo: { name: 'e2e-fork', version: '1.0.0' }, reconnect: false });
    try {
      const sessions = await watcher.listSessions();
      expect(sessions.map((s) => s.sessionId)).toContain(forked);
    } finally {
      await watcher.close();
    }
  });

  it('in the desktop app, picks the folder, shows a crash loop with its last error and restarts, and saves settings through the bridge', async () => {
    const desktopPage = await context.newPage();
    try {
      await desktopPage.addInitScript((workspace) => {
        const calls: unknown[] = [];
        let listener: ((state: unknown) => void) | undefined;
        (window as unknown as { desktopCalls: unknown[] }).desktopCalls = calls;
        (window as unknown as { nodwynDesktop: unknown }).nodwynDesktop = {
          version: 1,
          openWorkspace: async () => (calls.push('openWorkspace'), workspace),
          notify: (n: unknown) => calls.push(['notify', n]),
          daemonState: async () => ({ state: 'crash-loop', crashes: 3, lastError: 'EADDRINUSE 127.0.0.1:7420' }),
          onDaemonState: (l: (state: unknown) => void) => ((listener = l), () => (listener = undefined)),
          saveSettings: async (settings: unknown) => (calls.push(['saveSettings', settings]), { ok: false, error: 'the new daemon did not start', restored: true, state: { state: 'running', crashes: 0 } }),
          restartDaemon: async () => (calls.push('restartDaemon'), listener?.({ state: 'running', crashes: 0 }), { state: 'running', crashes: 0 }),
        };
      }, daemon.workspace);
      await desktopPage.goto(`${daemon.origin}/#/sessions`);
      await desktopPage.waitForSelector('.banner-crash-loop');
      expect(await desktopPage.textContent('.banner')).toContain('EADDRINUSE 127.0.0.1:7420');
      await desktopPage.fill('#workspace', '');
      await desktopPage.click('text=Choose folder…');
      await desktopPage.waitForFunction((w) => (document.querySelector('#workspace') as HTMLInputElement).value === w, daemon.workspace);
      await desktopPage.click('.banner button');
      await desktopPage.waitForSelector('.banner', { state: 'detached' });
      await desktopPage.goto(`${daemon.origin}/#/settings`);
      await desktopPage.waitForSelector('#setting-provider-anthropic-model');
      await desktopPage.fill('#setting-provider-anthropic-model', 'claude-web-e2e');
      await desktopPage.click('main form button[type=submit]');
      await desktopPage.waitForSelector('.notices .error');
      expect(await desktopPage.textContent('.notices .error')).toContain('the new daemon did not start (the previous settings were restored)');
      const calls = (await desktopPage.evaluate(() => (window as unknown as { desktopCalls: unknown[] }).desktopCalls)) as unknown[];
      expect(calls).toContainEqual(['saveSettings', { 'provider.anthropic': { model: 'claude-web-e2e', base_url: 'https://llm.example.com' } }]);
      expect(calls).toContain('openWorkspace');
      expect(calls).toContain('restartDaemon');
      expect(readFileSync(join(daemon.home, 'config.toml'), 'utf8')).not.toContain('claude-web-e2e');
      await desktopPage.setViewportSize({ width: 1280, height: 800 });
    } finally {
      await desktopPage.close();
    }
  });
});
