import { envelope, type Envelope, type GuardCall, type Verdict } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';

/** The kernel's own policy: destructive and irreversible calls need a person's confirmation. */
export function tierVerdict(call: GuardCall): Verdict {
  if (call.tier === 'destructive' || call.tier === 'irreversible') {
    return { kind: 'confirm', reason: `${call.name} is ${call.tier}` };
  }
  return { kind: 'allow' };
}

/**
 * The hard trigger (docs/architecture.md §6): an irreversible call inside a turn needs an approved plan first,
 * whatever the judge or the person's `--yes` say about single calls.
 */
export function planRequired(call: GuardCall): Envelope {
  return envelope({
    category: 'PRECONDITION_FAILED',
    code: KernelCodes.PLAN_REQUIRED,
    operation: call.name,
    retryable: 'after_remediation',
    remediation: `${call.name} is irreversible, so it runs only after a plan was approved in this turn. Reply with a short numbered plan of what you will do (no tool calls); once it is approved, call ${call.name} again.`,
  });
}
