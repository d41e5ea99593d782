import type { Envelope } from '@nodwyn/plugin-api';
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { sandboxEnvelope } from './errors.js';
import type { RunState } from './run-state.js';

/** Where in the run a failure surfaced: loading the module, running it, or checking its result. */
export type Phase = 'load' | 'run' | 'result';

/** The file name the code is evaluated under; stack frames name it with line and column. */
export const CODE_FILE = 'capability.js';
const MESSAGE_MAX = 500;

interface ErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** Reads a thrown value the way a person would want it: name, message, and where in the code. */
function describe(vm: QuickJSContext, error: QuickJSHandle): ErrorInfo {
  let dumped: unknown;
  try {
    dumped = vm.dump(error);
  } catch {
    // The value cannot be read (a getter that throws, no memory left to copy it): say so instead.
    return { name: 'Error', message: '[a value that could not be read]' };
  }
  if (typeof dumped !== 'object' || dumped === null) return { name: typeof dumped === 'string' ? 'a thrown string' : 'a thrown value', message: String(dumped) };
  const fields = dumped as { name?: unknown; message?: unknown; stack?: unknown; lineNumber?: unknown };
  const name = typeof fields.name === 'string' ? fields.name : 'a thrown object';
  const message = typeof fields.message === 'string' ? fields.message : JSON.stringify(dumped);
  const where = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+)(?::(\\d+))?`).exec(typeof fields.stack === 'string' ? fields.stack : '');
  const line = where ? Number(where[1]) : typeof fields.lineNumber === 'number' ? fields.lineNumber : undefined;
  return { name, message: message.slice(0, MESSAGE_MAX), ...(line === undefined ? {} : { line }), ...(where?.[2] ? { column: Number(where[2]) } : {}) };
}

/** The envelope of a refused door call whose error ended the run, if that is what `error` is. */
function refusalOf(vm: QuickJSContext, state: RunState, error: QuickJSHandle): Envelope | undefined {
  if (vm.typeof(error) !== 'object') return undefined;
  const id = vm.getProp(error, 'refusal').consume((h) => (vm.typeof(h) === 'number' ? vm.getNumber(h) : undefined));
  return id === undefined ? undefined : state.refusals.get(id);
}

function at(info: ErrorInfo): string {
  if (info.line === undefined) return '';
  return ` at line ${info.line}${info.column === undefined ? '' : `, column ${info.column}`}`;
}

/** The envelope for a run stopped from outside: the deadline or the signal. */
export function stoppedEnvelope(state: RunState, timeoutMs: number): Envelope {
  if (state.stopReason() === 'cancel') return sandboxEnvelope('SANDBOX_CANCELLED', { operation: 'sandbox.run', remediation: 'The run was cancelled before it finished; door calls it made (file writes, requests) may have happened.' });
  return sandboxEnvelope('SANDBOX_TIMEOUT', { operation: 'sandbox.run', remediation: `The code ran longer than ${timeoutMs} ms and was stopped. Look for a loop that never ends, or do less work per run.` });
}

/** The envelope for a run that allocated past its memory limit; `at` says where, when known. */
export function memoryEnvelope(at: string): Envelope {
  return sandboxEnvelope('SANDBOX_MEMORY', { operation: 'sandbox.run', remediation: `The code allocated more memory than the run may use${at}. Work on less data at a time, or keep fewer values alive.` });
}

/** What `failureOf` judges. */
export interface Failure {
  readonly vm: QuickJSContext;
  readonly state: RunState;
  readonly error: QuickJSHandle;
  readonly phase: Phase;
  readonly timeoutMs: number;
  /** True when the engine's memory is at its cap (QuickJS may then throw a bare value, or nothing it can describe). */
  readonly outOfMemory: () => boolean;
}

/**
 * The envelope for a value the VM threw. A stop from outside wins (the VM reports it as an `interrupted`
 * error); then a refused door call (its own envelope); then running out of memory; then the code's own
 * error, with its message and line so the model can fix the code.
 */
export function failureOf({ vm, state, error, phase, timeoutMs, outOfMemory }: Failure): Envelope {
  if (state.stopReason()) return stoppedEnvelope(state, timeoutMs);
  const refused = refusalOf(vm, state, error);
  if (refused) return refused;
  const info = describe(vm, error);
  if (/out of memory/i.test(info.message) || outOfMemory()) return memoryEnvelope(at(info));
  const text = `${info.name}: ${info.message}${at(info)}`;
  if (phase === 'result') {
    return sandboxEnvelope('SANDBOX_RESULT_NOT_JSON', { operation: 'sandbox.run', received_value: info.message, expected: 'a JSON value: null, a boolean, a finite number, a string, or arrays and plain objects of them', remediation: `The default export must return (or resolve to) plain JSON; ${info.message}. Convert it, e.g. a Date with toISOString(), a Map with Object.fromEntries().` });
  }
  if (phase === 'load' && (info.name === 'SyntaxError' || /could not load module/.test(info.message))) {
    const imports = /could not load module/.test(info.message) ? ' The code cannot import modules: everything it reaches goes through the nodwyn argument of its default export.' : '';
    return sandboxEnvelope('SANDBOX_CODE_INVALID', { operation: 'sandbox.run', received_value: text, remediation: `The code does not load: ${text}.${imports} Fix it and try again.` });
  }
  return sandboxEnvelope('SANDBOX_CODE_THREW', { operation: 'sandbox.run', received_value: text, remediation: `The code threw ${text}. Fix the code (or its arguments) and try again.` });
}
