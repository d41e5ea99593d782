import { EventLog } from '@nodwyn/kernel';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { percentile, type Row } from './stats.js';

/**
 * Runs in the page: scrolls the session list up 400 px a frame for 120 frames and answers each frame's
 * length. A string, since a function compiled by tsx would carry a helper the page does not have.
 */
const SCROLL_UP = `new Promise((resolve) => {
  const list = document.querySelector('.vlist');
  const lengths = [];
  let last = performance.now();
  const step = (now) => {
    lengths.push(now - last);
    last = now;
    list.scrollTop = Math.max(0, list.scrollTop - 400);
    if (lengths.length < 120) requestAnimationFrame(step);
    else resolve(lengths.slice(1));
  };
  requestAnimationFrame(step);
})`;

/** The little of a page's DOM the bench's in-page functions touch. */
interface PageGlobals {
  readonly document: {
    querySelectorAll(selector: string): { readonly length: number };
    querySelector(selector: string): { readonly textContent: string | null } | null;
  };
}

/** A NODWYN_HOME with 200 short sessions and one of about 25 MB, whose last answer is known. */
function homeWithSessions(dir: string): { home: string; workspace: string; long: string; last: string } {
  const home = join(dir, 'web-home');
  const workspace = join(dir, 'web-workspace');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const script = join(dir, 'web-script.json');
  writeFileSync(script, JSON.stringify({ replies: [{ text: 'hi' }] }));
  writeFileSync(join(home, 'config.toml'), `[provider]\ndefault = "scripted"\n[provider.scripted]\nscript = "${script}"\n`);
  const log = EventLog.open({ path: join(home, 'nodwyn.db'), keyPath: join(home, 'log.key') });
  const long = 's-web-bench-long';
  const last = 'The last answer of the long session.';
  try {
    for (let i = 0; i < 199; i++) {
      const session = `s-web-bench-${i}`;
      log.append(session, { type: 'session.created', actor: 'kernel', payload: { workspace: join(workspace, String(i % 7)), title: `session ${i}` } });
      log.append(session, { type: 'message.user', actor: 'user', payload: { text: `question ${i}` } });
    }
    log.append(long, { type: 'session.created', actor: 'kernel', payload: { workspace } });
    const answer = 'lorem ipsum **dolor** sit amet '.repeat(34);
    const round = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? { type: 'message.user', actor: 'user', payload: { text: `question ${i}` } } : { type: 'message.assistant', actor: 'model', payload: { text: answer, tool_calls: [], stop_reason: 'end_turn', provider: 'bench' } }));
    const size = () => statSync(join(home, 'nodwyn.db')).size + (statSync(join(home, 'nodwyn.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
    while (size() < 25 * 1024 * 1024) log.appendBatch(long, round);
    log.append(long, { type: 'message.user', actor: 'user', payload: { text: 'one more question' } });
    log.append(long, { type: 'message.assistant', actor: 'model', payload: { text: last, tool_calls: [], stop_reason: 'end_turn', provider: 'bench' } });
  } finally {
    log.close();
  }
  return { home, workspace, long, last };
}

/** The console's JavaScript as served (dist/web/assets), gzipped, in KB. */
function gzippedJsKb(root: string): number {
  const assets = join(root, 'plugins', 'frontend-web', 'dist', 'web', 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + gzipSync(readFileSync(join(assets, name))).length, 0) / 1024;
}

/** Issue 14's figures: the web console in Chromium against the real daemon (login link, cookie, WebSocket). */
export async function benchWeb(root: string, dir: string): Promise<Row[]> {
  const { home, workspace, long, last } = homeWithSessions(dir);
  const env = { PATH: process.env.PATH, HOME: dir, NODWYN_HOME: home };
  const daemon = spawn(process.execPath, [join(root, 'apps', 'cli', 'bin', 'nodwyn.mjs'), 'serve', '--port', '0'], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const profile = mkdtempSync(join(tmpdir(), 'nodwyn-bench-chromium-'));
  try {
    await new Promise((resolve, reject) => {
      daemon.stdout!.once('data', resolve);
      daemon.once('exit', (code) => reject(new Error(`web bench: nodwyn serve exited ${code}`)));
    });
    const info = JSON.parse(readFileSync(join(home, 'serve.json'), 'utf8')) as { http: string; token: string };
    const origin = new URL(info.http).origin;
    const linked = await fetch(`${origin}/_nodwyn/login-link`, { method: 'POST', headers: { authorization: `Bearer ${info.token}` } });
    const { url } = (await linked.json()) as { url: string };
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(url);
      // Time since the navigation started, as the page measures it, once `done(arg)` holds. Functions,
      // not strings: the console's CSP (no unsafe-eval) refuses a string predicate.
      const timed = async (target: string, done: (arg: string) => number | false, arg: string): Promise<number> => {
        await page.goto('about:blank');
        await page.goto(target);
        return (await page.waitForFunction(done, arg, { timeout: 20_000, polling: 'raf' })).jsonValue() as Promise<number>;
      };
      // These run in the page (tools/bench has no DOM types: the page's document is typed here by hand).
      const listed = (count: string) => ((globalThis as unknown as PageGlobals).document.querySelectorAll('table.sessions tbody tr').length >= Number(count) ? performance.now() : false);
      const opened = (text: string) => ((globalThis as unknown as PageGlobals).document.querySelector('.vlist')?.textContent?.includes(text) ? performance.now() : false);
      await timed(`${origin}/#/sessions`, listed, '200');
      const paints = [];
      for (let i = 0; i < 7; i++) paints.push(await timed(`${origin}/#/sessions`, listed, '200'));
      // No named function inside: tsx would wrap it in a helper the page does not have.
      const [script, connected, listedAt] = await page.evaluate(() => {
        const navigation = (performance.getEntriesByType as (type: string) => readonly unknown[])('navigation')[0] as { domContentLoadedEventEnd?: number } | undefined;
        return [navigation?.domContentLoadedEventEnd ?? Number.NaN, ...['nodwyn:connected', 'nodwyn:sessions-listed'].map((name) => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN)].map((ms) => Math.round(ms));
      });
      const marks = `script run by ${script} ms, connected ${connected} ms, listed ${listedAt} ms`;
      const sessionTarget = `${origin}/#/session/${encodeURIComponent(long)}`;
      await timed(sessionTarget, opened, last);
      const opens = [];
      for (let i = 0; i < 5; i++) opens.push(await timed(sessionTarget, opened, last));
      // Scrolling up through the session, earlier pages loading as it goes: every frame's length.
      const frames = (await page.evaluate(SCROLL_UP)) as number[];
      const rows = await page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelectorAll('.vlist .vrows > *').length);
      const kb = gzippedJsKb(root);
      return [
        { name: 'console first paint, 200 sessions listed', value: `${percentile(paints, 50).toFixed(0)} ms`, target: '≤ 300 ms', ok: percentile(paints, 50) <= 300, note: `median of 7: Chromium, navigation start to the 200 rows drawn; the last run: ${marks}` },
        { name: 'open a 25 MB session to its first frame', value: `${percentile(opens, 50).toFixed(0)} ms`, target: '≤ 500 ms', ok: percentile(opens, 50) <= 500, note: `median of 5, to the last answer shown; ${String(rows)} rows in the DOM (virtualised)` },
        { name: 'scrolling up a 25 MB session, frame length', value: `${percentile(frames, 50).toFixed(1)} / ${percentile(frames, 95).toFixed(1)} ms`, target: 'smooth', ok: percentile(frames, 95) <= 50, note: `p50 / p95 of ${frames.length} frames, scrolled 400 px a frame while earlier events load` },
        { name: "the console's JavaScript, gzipped", value: `${kb.toFixed(1)} KB`, target: '≤ 150 KB', ok: kb <= 150, note: 'every chunk of dist/web/assets; the first paint loads only the entry chunk' },
      ];
    } finally {
      await context.close();
    }
  } finally {
    daemon.kill('SIGTERM');
    rmSync(profile, { recursive: true, force: true });
  }
}
