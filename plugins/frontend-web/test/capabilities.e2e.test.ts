/// <reference lib="dom" />
import { connectDaemon } from '@nodwyn/client/node';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, pngSize } from './browser.js';
import { Daemon } from './daemon.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

/** A capability as a model registers it; version 2 joins with underscores (as in apps/cli's capability tests). */
const SLUGIFY = {
  name: 'slugify',
  description: 'Turns text into a lowercase URL slug.',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  code: "export default (args: { text: string }): string => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');",
  examples: [{ args: { text: 'Hello, World!' }, expect: 'hello-world' }],
};
const SLUGIFY_V2 = {
  ...SLUGIFY,
  code: "export default (args: { text: string }): string => args.text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');",
  examples: [{ args: { text: 'Hello, World!' }, expect: 'hello_world' }],
};

// Its own daemon: the scripted provider plays one script per prompt, from its first reply.
describe('the capabilities page in Chromium, against a real nodwyn serve', () => {
  const daemon = new Daemon([{ toolCalls: [{ name: 'register_capability', args: SLUGIFY }] }, { toolCalls: [{ name: 'register_capability', args: SLUGIFY_V2 }] }, { text: 'Registered slugify twice.' }]);
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    await daemon.start();
    const model = await connectDaemon({ home: daemon.home, clientInfo: { name: 'e2e-capabilities', version: '1.0.0' }, reconnect: false });
    try {
      // Admitting a capability may need a person's yes: this client gives it.
      model.onPermission(async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
      const { sessionId } = await model.newSession(daemon.workspace);
      expect((await model.prompt(sessionId, 'make a slug tool')).stopReason).toBe('end_turn');
    } finally {
      await model.close();
    }
    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    await page.goto(await daemon.loginLink());
    await page.waitForSelector('.connection-open');
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    daemon.stop();
  });

  it('lists the capability, shows each version with its code as text, and rolls back and disables, each after a confirm', async () => {
    await page.goto(`${daemon.origin}/#/capabilities/${encodeURIComponent(daemon.workspace)}`);
    await page.waitForSelector('.capabilities li');
    expect(await page.textContent('.capabilities li strong')).toBe('slugify');
    await page.click('.capabilities li button:text("History")');
    await page.waitForSelector('.history .version pre');
    expect(await page.$$eval('.history .version pre', (pres) => pres.map((p) => p.textContent))).toEqual([SLUGIFY.code, SLUGIFY_V2.code]);
    const shot = join(SCREENSHOTS, 'capabilities-history-1280x800.png');
    await page.screenshot({ path: shot });
    expect(pngSize(shot)).toEqual({ width: 1280, height: 800 });

    await page.click('.history button:text("Roll back to v1")');
    await page.waitForSelector('dialog[open]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog', { state: 'detached' });
    await page.click('.history button:text("Roll back to v1")');
    await page.click('dialog[open] button.danger');
    await page.waitForFunction(() => document.querySelector('.notices')?.textContent === 'Done.', undefined, { timeout: 10_000 });
    await page.click('.capabilities li button:text("History")');
    await page.waitForSelector('.history h3:text("Version 1 (current)")');

    await page.click('.capabilities li button.danger');
    await page.click('dialog[open] button.danger');
    await page.waitForSelector('dialog', { state: 'detached' });
    await page.waitForFunction(() => /disabled/i.test(document.querySelector('.capabilities')?.textContent ?? ''), undefined, { timeout: 10_000 });
  });
});
