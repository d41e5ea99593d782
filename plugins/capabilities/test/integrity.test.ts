import type { CliCommand } from '@nodwyn/plugin-api';
import type { TestKernel } from '@nodwyn/testing';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash, PLUGIN_NAME, type CapabilityVersion } from '../src/index.js';
import { SLUGIFY, startCapabilityKernel } from './kernel.js';

const kernels: TestKernel[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const k of kernels.splice(0)) await k.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(dbPath: string, key: Buffer): Promise<TestKernel> {
  const k = await startCapabilityKernel({ dbPath, key });
  kernels.push(k);
  return k;
}

async function listed(k: TestKernel): Promise<string> {
  const command = k.kernel.commands.get('capability').item as CliCommand;
  let out = '';
  await command.run({ args: ['list'], options: {}, io: { stdin: Readable.from([]), write: (t) => void (out += t), error: () => undefined, interactive: false } });
  return out;
}

/** What someone with write access to the database (not the log key) does: new code, and its hash recomputed. */
function rewriteStoredCode(dbPath: string, key: string, compiled: string): void {
  const db = new Database(dbPath);
  try {
    const row = db.prepare('SELECT value FROM plugin_store WHERE plugin = ? AND key = ?').pluck().get(PLUGIN_NAME, key) as string;
    const stored = JSON.parse(row) as CapabilityVersion;
    const edited = { ...stored, code: compiled, compiled };
    const value = JSON.stringify({ ...edited, hash: contentHash(edited) });
    db.prepare('UPDATE plugin_store SET value = ? WHERE plugin = ? AND key = ?').run(value, PLUGIN_NAME, key);
  } finally {
    db.close();
  }
}

describe('what runs is tied to the signed log', () => {
  it('refuses a version whose code and hash were both rewritten in the database, and lists it as tampered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nodwyn-cap-integrity-'));
    dirs.push(dir);
    const dbPath = join(dir, 'log.db');
    const key = randomBytes(32);
    const first = await start(dbPath, key);
    expect((await first.apply('register_capability', SLUGIFY)).ok).toBe(true);
    expect((await first.apply('register_capability', { ...SLUGIFY, name: 'slug_two' })).ok).toBe(true);
    await first.stop();
    kernels.splice(0);

    rewriteStoredCode(dbPath, 'version/slugify/00000001', "export default () => 'evil'");

    const later = await start(dbPath, key);
    expect(await later.apply('slugify', { text: 'x' })).toMatchObject({ ok: false, envelope: { code: 'CAPABILITY_TAMPERED' } });
    expect(await later.apply('execute_capability', { name: 'slugify', args: { text: 'x' } })).toMatchObject({
      ok: false,
      envelope: { code: 'CAPABILITY_TAMPERED', remediation: expect.stringContaining('no signed admission') as string },
    });
    const list = await listed(later);
    expect(list).toMatch(/slugify\s+v1\s+tampered/);
    expect(list).toMatch(/slug_two\s+v1\s+active/);
    expect(await later.apply('slug_two', { text: 'Y Z' })).toMatchObject({ ok: true, content: 'y-z' });
    // The log itself was not touched, so it verifies: the store is not the log, the run-time check is what sees the edit.
    expect(later.kernel.log.verify().ok).toBe(true);
  });

  it('refuses a disabled version that a database edit made current and active again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nodwyn-cap-integrity-'));
    dirs.push(dir);
    const dbPath = join(dir, 'log.db');
    const key = randomBytes(32);
    const first = await start(dbPath, key);
    expect((await first.apply('register_capability', SLUGIFY)).ok).toBe(true);
    await first.stop();
    kernels.splice(0);
    const db = new Database(dbPath);
    // A person's disable as the registry writes it (version 2, disabled), then the head and the version flipped back to active.
    const version = JSON.parse(db.prepare('SELECT value FROM plugin_store WHERE plugin = ? AND key = ?').pluck().get(PLUGIN_NAME, 'version/slugify/00000001') as string) as CapabilityVersion;
    const put = db.prepare('INSERT OR REPLACE INTO plugin_store (plugin, key, value) VALUES (?, ?, ?)');
    put.run(PLUGIN_NAME, 'version/slugify/00000002', JSON.stringify({ ...version, version: 2, status: 'active', author: 'person' }));
    put.run(PLUGIN_NAME, 'head/slugify', JSON.stringify({ current: 2, latest: 2, status: 'active' }));
    db.close();
    const later = await start(dbPath, key);
    expect(await later.apply('slugify', { text: 'x' })).toMatchObject({ ok: false, envelope: { code: 'CAPABILITY_TAMPERED' } });
  });
});
