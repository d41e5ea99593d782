import type { ApplyResult } from '@nodwyn/plugin-api';
import type { SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** An apply that refuses everything: runs that should never reach a door use it. */
export async function noApply(): Promise<ApplyResult> {
  throw new Error('this run was not expected to call apply');
}

/** A run request with no grants, a fresh signal and an apply that must not be called; `over` replaces any field. */
export function runRequest(code: string, over: Partial<SandboxRunRequest> = {}): SandboxRunRequest {
  return { session: 'test', code, args: {}, grants: {}, workspace: realpathSync(tmpdir()), signal: new AbortController().signal, apply: noApply, ...over };
}
