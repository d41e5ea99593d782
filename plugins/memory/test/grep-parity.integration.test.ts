import type { TestKernel } from '@nodwyn/testing';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { content, removeTemps, startMemoryKernel, tempDir } from './fixtures.js';
import { generateRepo } from './generated-repo.js';

let running: TestKernel | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  removeTemps();
});

describe('search_repo on a generated 20,000-file repository', () => {
  it('finds every line grep -rn finds, and ranks the file densest in the word first', { timeout: 300_000 }, async () => {
    const workspace = tempDir();
    const repo = generateRepo(workspace, 20_000, 'zephyrine');
    writeFileSync(join(workspace, 'ranked.ts'), 'zephyrine zephyrine zephyrine\n');
    expect(repo.rareLines).toBeGreaterThan(50);
    const grep = execFileSync('grep', ['-rn', 'zephyrine', '.'], { cwd: workspace, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .trim()
      .split('\n')
      .map((line) => line.replace(/^\.\//, ''));
    running = await startMemoryKernel({ workspace, settings: { memory: { index_budget_ms: 280_000 } } });
    const found = content(await running.apply('search_repo', { query: 'zephyrine', max_results: 1000 })).split('\n');
    expect(found.some((line) => line.startsWith('['))).toBe(false);
    expect(found[0]).toBe('ranked.ts:1:zephyrine zephyrine zephyrine');
    expect([...found].sort()).toEqual([...grep].sort());
    expect(found.length).toBe(repo.rareLines + 1);
  });
});
