import type { SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveDenoBinary } from './deno-binary.js';
import { createDenoRunner } from './deno-runner.js';

const TRIVIAL = 'export default (a) => a.x + 1';

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function trivialRequest(workspace: string): SandboxRunRequest {
  return {
    session: 'bench',
    code: TRIVIAL,
    args: { x: 41 },
    grants: {},
    workspace,
    signal: new AbortController().signal,
    apply: () => Promise.reject(new Error('the trivial capability calls no door')),
  };
}

/** One call the way Tendril makes it: a temp .ts file (prelude with the args, then the code), a fresh `deno run` with its flags, stdout read back. */
async function tendrilCall(binary: string, dir: string, denoDir: string, n: number): Promise<number> {
  const started = performance.now();
  const file = join(dir, `tool-${n}.ts`);
  await writeFile(file, 'const args: { x: number } = JSON.parse(\'{"x":41}\');\nconst run = (a: { x: number }) => a.x + 1;\nconsole.log(JSON.stringify(run(args)));\n');
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(binary, ['run', `--allow-read=${dir}`, `--allow-write=${dir}`, '--allow-net', '--no-prompt', '--quiet', file], { env: { ...process.env, DENO_DIR: denoDir } });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  await rm(file, { force: true });
  const elapsed = performance.now() - started;
  if (out.trim() !== '42') throw new Error(`Tendril's way answered ${JSON.stringify(out)}`);
  return elapsed;
}

/**
 * p50 of running `export default (a) => a.x + 1` through the Deno runner (a fresh process per run with
 * its harness, temp folder and flags), and Tendril's way as the baseline: a fresh `deno run` of a temp .ts
 * file per call with a warm shared DENO_DIR. Both spawn the binary by path. Interleaved, so a noisy
 * moment hits both.
 */
export async function benchDeno(runs = 30): Promise<{ denoP50Ms: number; tendrilP50Ms: number }> {
  const binary = resolveDenoBinary();
  const dir = mkdtempSync(join(tmpdir(), 'nodwyn-deno-bench-'));
  const denoDir = join(dir, 'deno-dir');
  const runner = createDenoRunner({ binary });
  try {
    await tendrilCall(binary, dir, denoDir, -1);
    const warmup = await runner.run(trivialRequest(dir));
    if (!warmup.ok || warmup.value !== 42) throw new Error(`the trivial capability failed: ${JSON.stringify(warmup)}`);
    const ours: number[] = [];
    const tendril: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const result = await runner.run(trivialRequest(dir));
      ours.push(performance.now() - started);
      if (!result.ok || result.value !== 42) throw new Error(`the trivial capability failed: ${JSON.stringify(result)}`);
      tendril.push(await tendrilCall(binary, dir, denoDir, i));
    }
    return { denoP50Ms: p50(ours), tendrilP50Ms: p50(tendril) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
