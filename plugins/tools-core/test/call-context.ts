import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isEnvelopeError, type Envelope, type PrimitiveCallContext, type PrimitiveDefinition, type ToolResult } from '@nodwyn/plugin-api';
import { afterEach, expect } from 'vitest';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, realpathed as the kernel hands workspaces to handlers; removed after the test. */
export function tempDir(prefix = 'nodwyn-tools-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes `files` (path → content) under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** A call context like the kernel's, for handlers that do not compose other primitives. */
export function callContext(workspace: string, options: { signal?: AbortSignal; outputCap?: number } = {}): PrimitiveCallContext {
  return {
    session: 'test-session',
    callId: 'call-1',
    workspace,
    signal: options.signal ?? new AbortController().signal,
    outputCap: options.outputCap ?? 64 * 1024,
    taint: [],
    apply: () => Promise.reject(new Error('apply is not available: tools-core does not compose primitives')),
  };
}

/** Runs a tool as the guard would: arguments through the input schema (preflight), then the handler. */
export async function call<I>(tool: PrimitiveDefinition<I>, args: unknown, context: PrimitiveCallContext): Promise<ToolResult> {
  return tool.handler(tool.input.parse(args), context);
}

/** Awaits a call that must fail, checks its category and code, and returns its envelope. */
export async function expectEnvelope(promise: Promise<unknown>, category: Envelope['category'], code: string): Promise<Envelope> {
  const error: unknown = await promise.then(
    () => new Error('expected the call to fail, but it succeeded'),
    (thrown: unknown) => thrown,
  );
  if (!isEnvelopeError(error)) throw error;
  expect({ category: error.envelope.category, code: error.envelope.code }).toEqual({ category, code });
  expect(error.envelope.plugin).toBe('@nodwyn/plugin-tools-core');
  return error.envelope;
}
