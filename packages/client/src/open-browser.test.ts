import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBrowser, openerCommand } from './open-browser.js';

const URL = 'http://127.0.0.1:7420/login?t=abc_DEF-123';

describe('openBrowser', () => {
  const folder = mkdtempSync(join(tmpdir(), 'nodwyn-browser-'));
  afterEach(() => rmSync(join(folder, 'got'), { force: true }));

  it('runs $BROWSER with the URL as one argument and says it opened', async () => {
    const script = join(folder, 'browser.sh');
    writeFileSync(script, `#!/bin/sh\nprintf '%s' "$1" > ${join(folder, 'got')}\n`);
    chmodSync(script, 0o755);
    expect(await openBrowser(URL, { env: { BROWSER: script }, platform: 'linux' })).toBe(true);
    expect(readFileSync(join(folder, 'got'), 'utf8')).toBe(URL);
  });

  it('says it did not open when the opener fails or does not exist', async () => {
    expect(await openBrowser(URL, { env: { BROWSER: 'false' }, platform: 'linux' })).toBe(false);
    expect(await openBrowser(URL, { env: { BROWSER: join(folder, 'missing') }, platform: 'linux' })).toBe(false);
  });

  it('has no opener on Linux without a display', () => {
    expect(openerCommand(URL, {}, 'linux')).toBeUndefined();
    expect(openerCommand(URL, { DISPLAY: ':0' }, 'linux')).toEqual(['xdg-open', URL]);
    expect(openerCommand(URL, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual(['xdg-open', URL]);
    expect(openerCommand(URL, {}, 'darwin')).toEqual(['open', URL]);
    expect(openerCommand(URL, { BROWSER: 'firefox --new-tab %s:chromium' }, 'linux')).toEqual(['firefox', '--new-tab', URL]);
  });
});
