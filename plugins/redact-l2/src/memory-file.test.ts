import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryFile } from './memory-file.js';
import { MAX_VALUES_PER_SESSION, TaintRegistry, WINDOW } from './taint-registry.js';

const TOKEN = 'ghp_R8x2LmQ0vTzY4kPw9sJd1NfHc7BaE3uGi6Ko';
const dirs: string[] = [];

// Distinct values that share no window with each other.
function flagged(i: number): string {
  return createHash('sha256').update(String(i)).digest('hex').slice(0, 24);
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-l2-'));
  dirs.push(dir);
  return dir;
}

/** A registry as a new process builds it from the data directory. */
function process(dir: string, keep = MAX_VALUES_PER_SESSION): TaintRegistry {
  return new TaintRegistry(MemoryFile.open(dir, WINDOW, keep));
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('L2 memory across processes', () => {
  it('recognises in a later process a value an earlier one remembered, inside an edited spelling (X=Zghp_…)', () => {
    const dir = dataDir();
    process(dir).remember('run-1', TOKEN, ['github-token']);
    const later = process(dir);
    expect(later.matches('run-2', `X=Z${TOKEN}`)).toEqual(['github-token']);
    expect(later.redact('run-2', `X=Z${TOKEN}\nOTHER=1`)).toBe('X=Z[REDACTED github-token]\nOTHER=1');
    expect(later.matches('run-2', Buffer.from(TOKEN).toString('base64'))).toEqual(['github-token']);
    expect(later.matches('run-2', 'nothing remembered in this text at all')).toEqual([]);
  });

  it('does not write again, run after run, a value an earlier process kept; a new tag or a pin is written', () => {
    const dir = dataDir();
    process(dir).remember('run-1', TOKEN, ['github-token'], { pinned: true });
    const once = readFileSync(join(dir, 'taint-memory.jsonl'), 'utf8');
    process(dir).remember('run-2', TOKEN, ['github-token'], { pinned: true });
    expect(readFileSync(join(dir, 'taint-memory.jsonl'), 'utf8')).toBe(once);
    process(dir).remember('run-3', TOKEN, ['github-token', 'other-class']);
    const later = process(dir);
    expect(later.matches('run-4', TOKEN)).toEqual(['github-token', 'other-class']);
  });

  it('writes keyed fingerprints only: neither the value nor any fragment of it is in the data directory', () => {
    const dir = dataDir();
    process(dir).remember('s', TOKEN, ['github-token'], { pinned: true });
    const stored = readFileSync(join(dir, 'taint-memory.jsonl'), 'utf8');
    for (let i = 0; i + 6 <= TOKEN.length; i++) expect(stored).not.toContain(TOKEN.slice(i, i + 6));
    expect(stored).not.toContain(Buffer.from(TOKEN).toString('hex').slice(0, 12));
  });

  it('keeps a pinned value across processes when the file is cut to the newest flagged values', () => {
    const dir = dataDir();
    const first = process(dir);
    first.remember('s', TOKEN, ['github-token'], { pinned: true });
    for (let i = 0; i < 30; i++) first.remember('s', flagged(i), [`t${i}`]);
    const later = process(dir, 10);
    expect(later.matches('s', TOKEN)).toEqual(['github-token']);
    expect(later.matches('s', flagged(0))).toEqual([]);
    expect(later.matches('s', flagged(29))).toEqual(['t29']);
  });

  it('keeps every whole record when the last line was torn by a crash, and drops the torn one', () => {
    const dir = dataDir();
    process(dir).remember('s', TOKEN, ['github-token'], { pinned: true });
    appendFileSync(join(dir, 'taint-memory.jsonl'), '{"id":"torn","pinned":false,"tags":["x"],"windows":[[1,');
    expect(process(dir).matches('s', TOKEN)).toEqual(['github-token']);
    expect(readFileSync(join(dir, 'taint-memory.jsonl'), 'utf8')).not.toContain('torn');
  });

  it('starts over, matching nothing, when the key was replaced (old fingerprints cannot be checked)', () => {
    const dir = dataDir();
    process(dir).remember('s', TOKEN, ['github-token']);
    writeFileSync(join(dir, 'taint.key'), Buffer.alloc(32, 7));
    expect(process(dir).matches('s', TOKEN)).toEqual([]);
  });
});
