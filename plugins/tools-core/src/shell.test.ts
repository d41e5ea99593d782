import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, callContext, expectEnvelope, tempDir } from '../test/call-context.js';
import { parseAllowEntry, type AllowEntry } from './shell-allow-list.js';
import { createShellTool, type ShellArgs } from './shell.js';

const allow = ['git status', 'npm test', 'git log *'].map((source) => parseAllowEntry(source) as AllowEntry);
const shell = createShellTool({ allow, defaultTimeoutMs: 30_000, maxTimeoutMs: 60_000, passEnv: [] });

/** True while `pid` runs. A zombie has ended: our PID 1 may not reap the orphans we kill. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** Reads the pid a command wrote to `bg.pid`, once it is there. */
async function backgroundPid(ws: string): Promise<number> {
  const file = join(ws, 'bg.pid');
  expect(await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n'))).toBe(true);
  return Number(readFileSync(file, 'utf8').trim());
}

describe('shell', () => {
  it('runs in the workspace and prints the exit code, then stdout and stderr', async () => {
    const ws = tempDir();
    const result = await call(shell, { command: 'pwd; echo oops >&2; exit 3' }, callContext(ws));
    const [exitLine, ...output] = result.content.split('\n');
    expect(exitLine).toBe('exit code: 3');
    expect(output.sort()).toEqual([ws, 'oops'].sort());
    expect(result.data).toEqual({ exitCode: 3, signal: null });
  });

  it('says when the command printed nothing, and when it died of a signal', async () => {
    const ws = tempDir();
    expect((await call(shell, { command: 'true' }, callContext(ws))).content).toBe('exit code: 0\n[no output]');
    expect((await call(shell, { command: 'kill -KILL $$' }, callContext(ws))).content).toBe('killed by signal: SIGKILL\n[no output]');
  });

  it('keeps the head and tail of long output within the output cap, marking the cut', async () => {
    const ws = tempDir();
    const command = "head -c 200000 /dev/zero | tr '\\0' a; echo; echo END";
    const result = await call(shell, { command }, callContext(ws, { outputCap: 8192 }));
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(8192);
    const lines = result.content.split('\n');
    expect(lines[0]).toBe('exit code: 0');
    expect(lines[1]).toMatch(/^a+$/);
    // 200005 bytes printed, 8192 - 512 kept.
    expect(lines[2]).toBe('[… 192325 bytes of output cut …]');
    expect(lines.at(-1)).toBe('END');
  });

  it('on timeout kills the whole process group, background jobs included', { timeout: 15_000 }, async () => {
    const ws = tempDir();
    const started = Date.now();
    const envelope = await expectEnvelope(
      call(shell, { command: 'sleep 100 & echo $! > bg.pid; sleep 100', timeout_ms: 1000 }, callContext(ws)),
      'TIMEOUT',
      'SHELL_TIMEOUT',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(envelope.retryable).toBe('after_remediation');
    expect(envelope.remediation).toContain('timeout_ms');
    const pid = await backgroundPid(ws);
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it('follows SIGTERM with SIGKILL for a job that ignores SIGTERM', { timeout: 15_000 }, async () => {
    const ws = tempDir();
    await expectEnvelope(
      call(shell, { command: "(trap '' TERM; sleep 100) & echo $! > bg.pid; sleep 100", timeout_ms: 1000 }, callContext(ws)),
      'TIMEOUT',
      'SHELL_TIMEOUT',
    );
    const pid = await backgroundPid(ws);
    expect(await waitFor(() => !isRunning(pid), 8000)).toBe(true);
  });

  it('on cancel kills the process group and answers SHELL_CANCELLED', { timeout: 15_000 }, async () => {
    const ws = tempDir();
    const controller = new AbortController();
    const running = call(shell, { command: 'sleep 100 & echo $! > bg.pid; sleep 100' }, callContext(ws, { signal: controller.signal }));
    const pid = await backgroundPid(ws);
    expect(isRunning(pid)).toBe(true);
    controller.abort();
    await expectEnvelope(running, 'CANCELLED', 'SHELL_CANCELLED');
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it('does not start a command when the call is already cancelled', async () => {
    const ws = tempDir();
    const controller = new AbortController();
    controller.abort();
    await expectEnvelope(call(shell, { command: 'touch ran' }, callContext(ws, { signal: controller.signal })), 'CANCELLED', 'SHELL_CANCELLED');
    expect(existsSync(join(ws, 'ran'))).toBe(false);
  });

  it.each([
    ['holding the output pipe', 'sleep 100 & echo $! > bg.pid'],
    ['detached from the output pipe', 'sleep 100 > /dev/null 2>&1 & echo $! > bg.pid'],
  ])('returns when bash exits and kills a background job %s', { timeout: 15_000 }, async (_, command) => {
    const ws = tempDir();
    const started = Date.now();
    const result = await call(shell, { command }, callContext(ws));
    expect(result.content.split('\n')[0]).toBe('exit code: 0');
    expect(Date.now() - started).toBeLessThan(5000);
    const pid = await backgroundPid(ws);
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it('classifies allow-listed commands as mutate and everything else as destructive', () => {
    const classify = (command: string) => shell.classify?.({ command } as ShellArgs);
    expect(shell.tier).toBe('destructive');
    expect(classify('git status')).toBe('mutate');
    expect(classify('git log --oneline')).toBe('mutate');
    expect(classify('git status; rm -rf ~')).toBe('destructive');
    expect(classify('rm -rf build')).toBe('destructive');
  });

  it('refuses a timeout above the configured maximum at preflight', () => {
    expect(shell.input.safeParse({ command: 'ls', timeout_ms: 60_001 }).success).toBe(false);
    expect(shell.input.safeParse({ command: 'ls', timeout_ms: 60_000 }).success).toBe(true);
  });
});

describe('the shell environment', () => {
  it('does not hand credential variables to the command', async () => {
    process.env.NODWYN_TEST_API_KEY = 'sk-must-not-leak';
    try {
      const tool = createShellTool({ allow, defaultTimeoutMs: 30_000, maxTimeoutMs: 60_000, passEnv: [] });
      const result = await call(tool, { command: 'echo "[${NODWYN_TEST_API_KEY:-unset}] [${PATH:+path}]"' }, callContext(tempDir()));
      expect(result.content).toContain('[unset] [path]');
    } finally {
      delete process.env.NODWYN_TEST_API_KEY;
    }
  });
});
