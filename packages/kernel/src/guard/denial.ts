import { envelope, isEnvelopeError, type EgressTarget, type Envelope, type Verdict } from '@nodwyn/plugin-api';
import type { RegisteredPrimitive } from '../primitives/primitive-table.js';
import { KernelCodes } from '../errors.js';

/** Thrown inside the guard when a stage denies; `apply` turns it into a logged `tool.denied`. */
export class Denied extends Error {
  constructor(readonly stage: string, readonly envelope: Envelope) {
    super(envelope.remediation);
  }
}

/** Applies a check stage's verdict: a deny stops the call; a confirm adds its reason to `reasons`. */
export function collect(verdict: Verdict, slot: string, name: string, owner: string, reasons: string[]): void {
  if (verdict.kind === 'deny') throw new Denied(`${slot}:${name}`, { ...verdict.envelope, plugin: verdict.envelope.plugin ?? owner });
  if (verdict.kind === 'confirm') reasons.push(verdict.reason);
}

/** The envelope of a stage that threw: its own envelope if it had one, else a fail-closed INTERNAL one. */
export function stageFailure(error: unknown, slot: string, stage: string, owner: string, operation: string): Envelope {
  // By shape, not instanceof: a third-party plugin bundles its own copy of plugin-api's EnvelopeError.
  if (isEnvelopeError(error)) return { ...error.envelope, plugin: error.envelope.plugin ?? owner };
  return envelope({
    category: 'INTERNAL',
    code: KernelCodes.GUARD_STAGE_FAILED,
    operation,
    plugin: owner,
    remediation: `The ${slot} stage "${stage}" of ${owner} failed, so the call was denied (the guard fails closed). Report this to the plugin's author.`,
  });
}

/**
 * What an egress primitive says it will send. A describer that throws denies the call: the egress stage
 * cannot check a request it cannot see.
 */
export function egressTargets(primitive: RegisteredPrimitive, args: unknown): readonly EgressTarget[] {
  if (!primitive.egressTargets) return [];
  try {
    return primitive.egressTargets(args);
  } catch (error) {
    throw new Denied('egress', stageFailure(error, 'egress', 'egressTargets', primitive.owner, primitive.name));
  }
}

/** The sorted union of two tag sets. */
export function mergeTags(a: readonly string[], b: readonly string[] = []): readonly string[] {
  return b.length === 0 ? a : [...new Set([...a, ...b])].sort();
}

/** A plugin's host call named a model tool: those run only as the model's own calls, inside a turn's budgets. */
export function modelToolAsHostCall(name: string): Envelope {
  return envelope({
    category: 'PERMISSION_DENIED',
    code: KernelCodes.HOST_CALL_MODEL_TOOL,
    operation: name,
    failed_parameter: '$.name',
    received_value: name,
    expected: 'a host primitive (visibility "host")',
    remediation: `"${name}" is a model tool; it runs only as the model's call in a turn. A plugin's host call may reach host primitives only.`,
  });
}
