import { envelope, type Envelope } from '@nodwyn/plugin-api';
import type { ToolCall } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';

/** An envelope that ends a run. */
export function stopEnvelope(category: Envelope['category'], code: string, remediation: string): Envelope {
  return envelope({ category, code, remediation, retryable: 'never' });
}

/** A budget ran out. */
export function budgetEnvelope(code: string, limit: string): Envelope {
  return envelope({
    category: 'BUDGET_EXCEEDED',
    code,
    expected: limit,
    retryable: 'after_remediation',
    remediation: `The run used its budget of ${limit} and was stopped. Continue in a new run, or raise the limit.`,
  });
}

/** The progress guard stopped a repeated call. */
export function repeatEnvelope(call: ToolCall, times: number): Envelope {
  return envelope({
    category: 'LIMIT_EXCEEDED',
    code: KernelCodes.PROGRESS_REPEATED_CALL,
    operation: call.name,
    received_value: call.args,
    retryable: 'after_remediation',
    remediation: `${call.name} was called ${times} times with the same arguments, so the run was stopped as making no progress. Try a different approach.`,
  });
}

/** A loop strategy tried to run a call that is not the model's own. */
export function foreignCallEnvelope(remediation: string): Envelope {
  return envelope({ category: 'PRECONDITION_FAILED', code: KernelCodes.LOOP_FOREIGN_CALL, remediation, retryable: 'never' });
}
