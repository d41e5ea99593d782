import { type PrimitiveCallContext, type Token } from '@nodwyn/plugin-api';
import { sandboxRunnerToken, type SandboxGrants, type SandboxLimits, type SandboxResult, type SandboxRunner } from '@nodwyn/plugin-api/sandbox';
import type { RunnerId } from './config.js';
import { capabilityError } from './errors.js';

/** Finds a loaded sandbox runner by its service token. */
export type RunnerLookup = (token: Token<SandboxRunner>) => SandboxRunner;

/** One sandbox run of a capability's compiled code (or an example's predicate). */
export interface RunInput {
  readonly runner: RunnerId;
  readonly code: string;
  readonly args: unknown;
  readonly grants: SandboxGrants;
  readonly limits: SandboxLimits;
}

/** Runs code in the named runner, with the calling primitive's doors (its `apply`), signal and workspace. */
export function runInSandbox(lookup: RunnerLookup, input: RunInput, call: PrimitiveCallContext): Promise<SandboxResult> {
  let runner: SandboxRunner;
  try {
    runner = lookup(sandboxRunnerToken(input.runner));
  } catch (error) {
    throw capabilityError('CAPABILITY_RUNNER_MISSING', {
      operation: 'capability.run',
      received_value: input.runner,
      remediation: `The sandbox runner "${input.runner}" is not loaded, so the capability cannot run. Load @nodwyn/plugin-sandbox-${input.runner}, or register the capability for another runner.`,
    }, error);
  }
  return runner.run({
    session: call.session,
    code: input.code,
    args: input.args,
    grants: input.grants,
    limits: input.limits,
    workspace: call.workspace,
    signal: call.signal,
    apply: call.apply,
  });
}
