import type { PrimitiveCallContext } from '@nodwyn/plugin-api';
import type { SandboxGrants, SandboxLimits, SandboxResult, SandboxRunner } from '@nodwyn/plugin-api/sandbox';
import type { RunnerId } from './config.js';
import { capabilityError } from './errors.js';

/** The loaded sandbox runner of an id; undefined when its plugin is not loaded. */
export type RunnerLookup = (id: RunnerId) => SandboxRunner | undefined;

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
  const runner = lookup(input.runner);
  if (!runner) {
    throw capabilityError('CAPABILITY_RUNNER_MISSING', {
      operation: 'capability.run',
      received_value: input.runner,
      remediation: `The sandbox runner "${input.runner}" is not loaded, so the capability cannot run. Load @nodwyn/plugin-sandbox-${input.runner}, or register the capability for another runner.`,
    });
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
