import { toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, type SandboxResult, type SandboxRunner, type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import type { QuickJSHandle } from 'quickjs-emscripten-core';
import { doorScope } from './door-call.js';
import { PLUGIN_NAME, sandboxEnvelope } from './errors.js';
import { fetchDoor, netGrants } from './fetch-door.js';
import { readFileDoor, writeFileDoor } from './file-doors.js';
import { byteLength } from './log-buffer.js';
import { argsText, resolveLimits } from './run-limits.js';
import { RunState } from './run-state.js';
import { SandboxPool } from './sandbox-pool.js';
import { settle, type Settled } from './settle.js';
import { CODE_FILE, failureOf, memoryEnvelope, stoppedEnvelope, type Phase } from './vm-failure.js';
import type { WarmSandbox } from './warm-sandbox.js';

/** How to build a QuickJS runner. */
export interface QuickjsRunnerOptions {
  /** Fresh sandboxes kept ready (default 3: an admission of two examples, one with a check, takes three). */
  readonly poolSize?: number;
  /**
   * The VM's stack limit in bytes (default 192 KiB, about 1000 plain recursive calls). QuickJS frames also
   * use the host's native stack, several times their own size: a larger limit lets deep recursion
   * overflow Node's stack before QuickJS notices, which kills the engine instead of throwing in the code.
   */
  readonly maxStackBytes?: number;
}

/** The QuickJS runner, with hooks for the host and the benchmark. */
export interface QuickjsRunner extends SandboxRunner {
  /** Compiles the engine and fills the pool (for the default memory limit) now instead of on the first run. */
  warm(): Promise<void>;
  /** Drops the warm sandboxes (the runner still works: it warms again on the next run). */
  dispose(): void;
}

const MIB = 1024 * 1024;

type Outcome = { ok: true; json: string } | { ok: false; envelope: Envelope };

/** Runs the module in a bound sandbox: load, call the default export, check the result. */
async function execute(sandbox: WarmSandbox, request: SandboxRunRequest, state: RunState, limits: SandboxLimits, args: string): Promise<Outcome> {
  const vm = sandbox.context;
  const failed = (settled: Exclude<Settled, { kind: 'value' }>, phase: Phase): Outcome => {
    if (settled.kind === 'stopped') return { ok: false, envelope: stoppedEnvelope(state, limits.timeoutMs) };
    if (settled.kind === 'never') {
      return { ok: false, envelope: sandboxEnvelope('SANDBOX_NEVER_SETTLED', { operation: 'sandbox.run', remediation: 'The code awaits a promise that nothing can ever settle (no door call is pending). Make sure every promise it awaits is resolved.' }) };
    }
    return { ok: false, envelope: settled.error.consume((error) => failureOf({ vm, state, error, phase, timeoutMs: limits.timeoutMs, outOfMemory: () => sandbox.memoryExhausted() })) };
  };
  const evaluated = vm.evalCode(request.code, CODE_FILE, { type: 'module' });
  if (evaluated.error) return failed({ kind: 'error', error: evaluated.error }, 'load');
  const loaded = await settle(vm, state, evaluated.value);
  if (loaded.kind !== 'value') return failed(loaded, 'load');
  const main = loaded.value.consume((namespace) => vm.getProp(namespace, 'default'));
  if (vm.typeof(main) !== 'function') {
    main.dispose();
    return { ok: false, envelope: sandboxEnvelope('SANDBOX_NO_DEFAULT_EXPORT', { operation: 'sandbox.run', remediation: 'The code must be an ES module whose default export is a function: export default async (args, nodwyn) => { … }.' }) };
  }
  const input = vm.newString(args).consume((text) => vm.unwrapResult(vm.callFunction(sandbox.kit.args, vm.undefined, text)));
  const called = vm.callFunction(main, vm.undefined, input, sandbox.kit.nodwyn);
  main.dispose();
  input.dispose();
  if (called.error) return failed({ kind: 'error', error: called.error }, 'run');
  const returned = await settle(vm, state, called.value);
  if (returned.kind !== 'value') return failed(returned, 'run');
  const json = returned.value.consume((value) => vm.callFunction(sandbox.kit.result, vm.undefined, value));
  if (json.error) return failed({ kind: 'error', error: json.error }, 'result');
  return { ok: true, json: json.value.consume((text) => vm.getString(text)) };
}

/** Binds a sandbox to the run: limits, the interrupt that enforces deadline and signal, and the doors. */
function bind(sandbox: WarmSandbox, request: SandboxRunRequest, state: RunState, limits: SandboxLimits, maxStackBytes: number): void {
  const { runtime, context } = sandbox;
  runtime.setMemoryLimit(limits.memoryMb * MIB);
  runtime.setMaxStackSize(maxStackBytes);
  runtime.setInterruptHandler(() => state.stopReason() !== undefined);
  const scope = doorScope(context, state, request);
  sandbox.bind({
    readFile: (path) => readFileDoor(scope, path),
    writeFile: (path, text) => writeFileDoor(scope, path, text),
    fetch: (url, init) => fetchDoor(scope, url, init),
    log: (line: QuickJSHandle) => state.logs.append(context.getString(line)),
  });
}

/** The result within the output cap: a result over the cap is refused; logs get what the result left. */
function resultOf(outcome: Outcome, state: RunState, outputCap: number): SandboxResult {
  const taint = state.taintList();
  if (!outcome.ok) return { ok: false, envelope: outcome.envelope, logs: state.logs.finish(outputCap).text, taint };
  const size = byteLength(outcome.json);
  if (size > outputCap) {
    const envelope = sandboxEnvelope('SANDBOX_OUTPUT_CAP', { operation: 'sandbox.run', expected: `at most ${outputCap} bytes`, received_value: `${size} bytes`, remediation: `The result is ${size} bytes, more than the output cap of ${outputCap}. Return less: a summary, a page of the data, or write the rest to a file.` });
    return { ok: false, envelope, logs: state.logs.finish(outputCap).text, taint };
  }
  const logs = state.logs.finish(outputCap - size);
  return { ok: true, value: JSON.parse(outcome.json) as unknown, logs: logs.text, truncated: logs.truncated, taint };
}

/**
 * The envelope when a call into the engine threw on the host: its memory ran out where QuickJS could not
 * even raise an error, or the engine trapped. The sandbox is dropped either way; the next run gets another.
 */
function engineFailure(error: unknown, sandbox: WarmSandbox | undefined): Envelope {
  if (sandbox?.memoryExhausted()) return memoryEnvelope('');
  const message = error instanceof Error ? error.message : String(error);
  return sandboxEnvelope('SANDBOX_ENGINE_FAILED', {
    operation: 'sandbox.run',
    received_value: message,
    remediation: `The QuickJS engine failed (${message}); the next run gets a fresh one. If this repeats for the same code, simplify it (less recursion, smaller values).`,
  });
}

async function run(pool: SandboxPool, request: SandboxRunRequest, maxStackBytes: number): Promise<SandboxResult> {
  let limits: SandboxLimits;
  let args: string;
  try {
    limits = resolveLimits(request.limits);
    args = argsText(request.args);
    // A net entry that is not a plain host refuses the run before any code runs, not at its first fetch.
    netGrants(request.grants.net);
  } catch (error) {
    return { ok: false, envelope: toEnvelope(error, { operation: 'sandbox.run', plugin: PLUGIN_NAME }), logs: '', taint: [] };
  }
  const state = new RunState(request.signal, limits.timeoutMs, limits.outputCap);
  if (request.signal.aborted) return resultOf({ ok: false, envelope: stoppedEnvelope(state, limits.timeoutMs) }, state, limits.outputCap);
  let sandbox: WarmSandbox | undefined;
  try {
    sandbox = await pool.take(limits.memoryMb);
    state.start();
    bind(sandbox, request, state, limits, maxStackBytes);
    const outcome = await execute(sandbox, request, state, limits, args);
    state.finish();
    return resultOf(outcome, state, limits.outputCap);
  } catch (error) {
    // The engine failed under us: touch nothing of it again; the sandbox is dropped with this run.
    state.finish();
    return resultOf({ ok: false, envelope: engineFailure(error, sandbox) }, state, limits.outputCap);
  }
}

/**
 * The default runner: QuickJS compiled to WebAssembly, one fresh engine per run (kept warm in a pool),
 * with no ambient authority. The code sees the language and the `nodwyn` door; every door call goes
 * through `apply()` and the guard.
 */
export function createQuickjsRunner(options: QuickjsRunnerOptions = {}): QuickjsRunner {
  const pool = new SandboxPool(options.poolSize ?? 3);
  const maxStackBytes = options.maxStackBytes ?? 192 * 1024;
  return {
    id: 'quickjs',
    description: 'QuickJS in WebAssembly: no ambient authority; files, network and logs only through the nodwyn door and the guard.',
    network: 'guarded',
    run: (request) => run(pool, request, maxStackBytes),
    warm: () => pool.warm(DEFAULT_SANDBOX_LIMITS.memoryMb),
    dispose: () => pool.dispose(),
  };
}
