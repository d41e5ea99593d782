import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const config = fileURLToPath(new URL('../app/vite.config.ts', import.meta.url));

describe('the web console bundle (vite build of app/)', () => {
  const out = mkdtempSync(join(tmpdir(), 'nodwyn-web-bundle-'));
  let html = '';
  let assets: string[] = [];

  beforeAll(async () => {
    await build({ configFile: config, logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
    html = readFileSync(join(out, 'index.html'), 'utf8');
    assets = readdirSync(join(out, 'assets'));
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('has no inline script or style in index.html, so it runs under script-src and style-src self', () => {
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\/[\w.-]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    expect(html).toMatch(/<link rel="stylesheet"[^>]*href="\/assets\/[\w.-]+\.css"/);
  });

  it('names its assets by content hash and keeps the JavaScript under 150 KB gzipped', () => {
    const js = assets.filter((name) => name.endsWith('.js'));
    for (const name of assets) expect(name).toMatch(/-[\w-]{8}\.(js|css)$/);
    const gzipped = js.reduce((sum, name) => sum + gzipSync(readFileSync(join(out, 'assets', name))).length, 0);
    expect(gzipped).toBeLessThan(150 * 1024);
  });

  it('leaves Markdown and the session view out of the first script, loaded on first use', () => {
    const entry = /src="\/assets\/([\w.-]+\.js)"/.exec(html)![1]!;
    const code = readFileSync(join(out, 'assets', entry), 'utf8');
    expect(code).not.toContain('DOMPurify');
    expect(code).toContain('session-page');
    expect(assets.some((name) => name.startsWith('session-page-'))).toBe(true);
  });
});
