import { isEnvelopeError, type ApplyResult } from '@nodwyn/plugin-api';
import { redactL1Plugin } from '@nodwyn/plugin-redact-l1';
import { redactL2Plugin } from '@nodwyn/plugin-redact-l2';
import { toolsCorePlugin } from '@nodwyn/plugin-tools-core';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '@nodwyn/testing';
import type { Envelope } from '@nodwyn/protocol';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { memoryPlugin } from '../src/index.js';

const temps: string[] = [];

/** A fresh temporary folder (real path), removed by `removeTemps`. */
export function tempDir(prefix = 'nodwyn-memory-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made. */
export function removeTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `files` (relative path → content) under `root`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A kernel with the text layers, the core tools and the memory plugin, as the default distribution has them. */
export function startMemoryKernel(options: TestKernelOptions = {}): Promise<TestKernel> {
  return startTestKernel({ plugins: [redactL1Plugin, redactL2Plugin, toolsCorePlugin, memoryPlugin], ...options });
}

/** The content of a successful call. */
export function content(result: ApplyResult): string {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.envelope)}`);
  return result.content;
}

/** The envelope of a failed call. */
export function failure(result: ApplyResult): Envelope {
  if (result.ok) throw new Error(`expected a failure, got ${result.content}`);
  return result.envelope;
}

export { isEnvelopeError };
