import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERSION } from './version.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('nodwyn --version', () => {
  it('is the version in package.json', () => {
    expect(VERSION).toBe((JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('prints it from the binary, by both spellings', () => {
    for (const flag of ['--version', '-V']) {
      const out = spawnSync(process.execPath, [join(app, 'bin', 'nodwyn.mjs'), flag], { encoding: 'utf8' });
      expect([out.status, out.stdout]).toEqual([0, `${VERSION}\n`]);
    }
  });
});
