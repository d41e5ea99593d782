import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { admissionProof, contentHash, Registry } from '../src/index.js';
import { startCapabilityKernel } from './kernel.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts the admitting child, waits until it admitted `after` versions plus a random few ms, and kills it hard. */
function admitThenKill(dbPath: string, key: Buffer, mode: 'registry' | 'tool', after: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@nodwyn/source', '--import', tsx, join(here, 'crash-child.ts'), dbPath, key.toString('hex'), mode], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    let stderr = '';
    const deadline = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split('\n').filter((line) => line.startsWith('admitted')).length;
      if (seen >= after && !child.killed) setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 15));
    });
    child.on('exit', (_code, signal) => {
      clearTimeout(deadline);
      if (signal === 'SIGKILL' && seen >= after) resolve(seen);
      else reject(new Error(`the child ended before it was killed (${signal ?? _code}): ${stderr}`));
    });
  });
}

/** What a reopened registry must look like whatever moment the kill hit: whole versions, a head on one, events in step. */
async function checkConsistent(dbPath: string, key: Buffer, admittedAtLeast: number): Promise<number> {
  const k = await startCapabilityKernel({ dbPath, key });
  try {
    const registry = new Registry(k.kernel.log.store('@nodwyn/plugin-capabilities'), admissionProof(k.kernel.reader));
    const head = registry.head('slugify')!;
    const versions = registry.history('slugify');
    expect(head.latest).toBeGreaterThanOrEqual(admittedAtLeast);
    expect(head.current).toBe(head.latest);
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: head.latest }, (_, i) => i + 1));
    for (const version of versions) expect(contentHash(version)).toBe(version.hash);
    const admitted = k.kernel.sessions.list().flatMap((s) => k.events(s.id)).filter((e) => e.type === 'capability.admitted');
    expect(admitted.map((e) => e.payload.version as number).sort((a, b) => a - b)).toEqual(versions.map((v) => v.version));
    expect(k.kernel.log.verify().ok).toBe(true);
    expect(await k.apply('slugify', { text: 'Still Works' })).toMatchObject({ ok: true, content: 'still-works' });
    return head.latest;
  } finally {
    await k.stop();
  }
}

describe('crash safety of admission', () => {
  it.each(['registry', 'tool'] as const)('leaves the old version or the new one, never a mix, when the process is killed mid-admission (%s)', async (mode) => {
    const dir = mkdtempSync(join(tmpdir(), 'nodwyn-crash-'));
    dirs.push(dir);
    const dbPath = join(dir, 'log.db');
    const key = randomBytes(32);
    let latest = 0;
    for (let round = 0; round < 4; round++) {
      const seen = await admitThenKill(dbPath, key, mode, 3);
      latest = await checkConsistent(dbPath, key, latest + seen);
    }
  }, 120_000);
});
