import type { Envelope } from '@nodwyn/protocol';
import { transportEnvelope } from './codes.js';
import { canonicalArgs } from './operation-digest.js';
import type { CallArgs } from './operation-preflight.js';
import type { CallOptions, OperationDescriptor, OperationResult, Verification, VerifyDescriptor } from './operation-types.js';
import { pause } from './pause.js';
import { resolveReference, UNRESOLVED, valueAtPath, type ReferenceScope } from './verification-reference.js';

/** Default polling budget and interval of a `terminal` verification. */
export const VERIFY_DEFAULTS = { budgetMs: 10_000, intervalMs: 500 } as const;

/** How the verification reaches the read it runs: the client's own call, without verification. */
export type VerifyCall = (id: string, args: unknown, options: CallOptions) => Promise<OperationResult>;

/**
 * Runs an operation's verification read after it succeeded (docs/architecture.md §8): the read's
 * arguments from `verify.args` with `$args` / `$response` references resolved, `expect` compared with
 * its answer, and with `terminal` the read polled every intervalMs until every entry matches or
 * budgetMs is spent. A reference that does not resolve never matches. The result is only attached to
 * the call's result; it never changes it.
 */
export async function verifyOperation(operation: OperationDescriptor, args: CallArgs, response: unknown, call: VerifyCall, signal: AbortSignal): Promise<Verification> {
  const verify = operation.verify as VerifyDescriptor;
  const scope: ReferenceScope = { args, response };
  const readArgs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(verify.args)) {
    const resolved = resolveReference(value, scope);
    if (resolved === UNRESOLVED) return { checked: false, envelope: unresolved(operation, verify, name) };
    readArgs[name] = resolved;
  }
  const expect = resolveAll(verify.expect, scope);
  const terminal = resolveAll(verify.terminal, scope);
  const budgetMs = verify.budgetMs ?? VERIFY_DEFAULTS.budgetMs;
  const intervalMs = verify.intervalMs ?? VERIFY_DEFAULTS.intervalMs;
  const started = Date.now();
  for (let polls = 1; ; polls++) {
    const read = await call(verify.operation, readArgs, { signal, verify: false });
    if (!read.ok) return { checked: false, polls, envelope: read.envelope };
    const done = terminal === undefined || matches(read.value, terminal);
    if (done || Date.now() - started + intervalMs > budgetMs || !(await pause(intervalMs, signal))) {
      const all = [...Object.entries(terminal ?? {}), ...Object.entries(expect ?? {})];
      const first = all[0]?.[0];
      const state = first === undefined ? read.value : valueAtPath(read.value, first);
      return { checked: true, state: state === UNRESOLVED ? undefined : state, ...(all.length === 0 ? {} : { matched: matches(read.value, Object.fromEntries(all)) }), polls };
    }
  }
}

function resolveAll(entries: Readonly<Record<string, unknown>> | undefined, scope: ReferenceScope): Record<string, unknown> | undefined {
  if (entries === undefined) return undefined;
  return Object.fromEntries(Object.entries(entries).map(([path, value]) => [path, resolveReference(value, scope)]));
}

/** Every path holds the expected value (compared as canonical JSON); an unresolved side never matches. */
function matches(value: unknown, expected: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(expected).every(([path, want]) => {
    const actual = valueAtPath(value, path);
    return want !== UNRESOLVED && actual !== UNRESOLVED && canonicalArgs(actual) === canonicalArgs(want);
  });
}

function unresolved(operation: OperationDescriptor, verify: VerifyDescriptor, name: string): Envelope {
  return transportEnvelope('VERIFY_REFERENCE_UNRESOLVED', {
    operation: verify.operation,
    failed_parameter: name,
    remediation: `The verification of ${operation.id} could not call ${verify.operation}: its argument "${name}" refers to something the call and its answer do not hold. Read the resource yourself to check the effect.`,
  });
}
