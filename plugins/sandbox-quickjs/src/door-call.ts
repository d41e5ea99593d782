import { ContractCodes, toEnvelope, type ApplyResult } from '@nodwyn/plugin-api';
import { type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { PLUGIN_NAME, sandboxError } from './errors.js';
import type { RunState } from './run-state.js';

/** What every door needs: the VM, the run's state and request, and `apply` that carries the run's taint. */
export interface DoorScope {
  readonly vm: QuickJSContext;
  readonly state: RunState;
  readonly request: SandboxRunRequest;
  /** `request.apply` with the run's taint so far; the answer's taint joins the run's. */
  apply(name: string, args: unknown): Promise<ApplyResult>;
}

/** Builds a scope whose `apply` passes the run's taint on and gathers what comes back. */
export function doorScope(vm: QuickJSContext, state: RunState, request: SandboxRunRequest): DoorScope {
  return {
    vm,
    state,
    request,
    async apply(name, args) {
      const result = await request.apply(name, args, { taint: state.taintList() });
      if (result.ok) state.addTaint(result.taint);
      return result;
    },
  };
}

/** A string argument, or undefined when the code passed anything else. */
export function stringArgument(vm: QuickJSContext, handle: QuickJSHandle | undefined): string | undefined {
  return handle !== undefined && vm.typeof(handle) === 'string' ? vm.getString(handle) : undefined;
}

/** Refuses a door call that lacks its grant. */
export function requireGrant(granted: boolean, grant: 'read' | 'write' | 'net', door: string): void {
  if (granted) return;
  throw sandboxError('SANDBOX_GRANT_MISSING', {
    operation: door,
    failed_parameter: `$.grants.${grant}`,
    expected: `the "${grant}" grant`,
    remediation: `${door} needs the "${grant}" grant, which this capability was not given; request it when registering the capability, or do without ${door}.`,
  });
}

/** A string the code must pass, or a refusal naming the parameter. */
export function requireString(value: string | undefined, door: string, param: string): string {
  if (value !== undefined) return value;
  throw sandboxError('SANDBOX_DOOR_ARGUMENT', { operation: door, failed_parameter: param, expected: 'a string', remediation: `${door} takes a string as ${param.slice(2)}.` });
}

/** The VM error a refused door call rejects with; its `refusal` id finds the envelope if it ends the run. */
function refusalError(scope: DoorScope, error: unknown, door: string): QuickJSHandle {
  const env = toEnvelope(error, { operation: door, plugin: PLUGIN_NAME });
  const id = scope.state.refusals.size + 1;
  scope.state.refusals.set(id, env);
  const { vm } = scope;
  const handle = vm.newError({ name: 'NodwynError', message: `${door} was refused (${env.category} ${env.code}): ${env.remediation}` });
  vm.newString(env.code ?? ContractCodes.SANDBOX_DOOR_FAILED).consume((code) => vm.setProp(handle, 'code', code));
  vm.newString(env.category).consume((category) => vm.setProp(handle, 'category', category));
  vm.newNumber(id).consume((refusal) => vm.setProp(handle, 'refusal', refusal));
  return handle;
}

/**
 * Answers a door call with a VM promise. `work` runs on the host; what it answers (a function that makes
 * the value in the VM) or the error it throws is handed to the VM by the run loop, never from here.
 */
export function doorCall(scope: DoorScope, door: string, work: () => Promise<() => QuickJSHandle>): QuickJSHandle {
  const { vm, state } = scope;
  const deferred = vm.newPromise();
  state.track(deferred);
  work().then(
    (make) =>
      state.answer(deferred, () => {
        const value = make();
        deferred.resolve(value);
        value.dispose();
      }),
    (error: unknown) =>
      state.answer(deferred, () => {
        const refusal = refusalError(scope, error, door);
        deferred.reject(refusal);
        refusal.dispose();
      }),
  );
  return deferred.handle;
}
