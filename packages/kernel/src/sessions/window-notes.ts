import { envelope, type Envelope } from '@nodwyn/plugin-api';
import type { ToolCall } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';

/** Rough token estimate (4 characters a token) used to keep the window within its budget. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** How the plan events read to the model: instructions from nodwyn, not from the person. */
export const PLAN_NOTES: Readonly<Record<string, (p: Record<string, unknown>) => string>> = {
  'plan.requested': (p) =>
    `[nodwyn] A plan is required before acting (${String(p.reason)}). Reply with a short numbered plan of what you will do, and make no tool calls in that reply; it will be reviewed first.`,
  'plan.revise': (p) =>
    `[nodwyn] The plan was not approved${typeof p.score === 'number' ? ` (score ${p.score})` : ''}.${p.feedback ? ` Feedback: ${String(p.feedback)}` : ''} Reply with a revised plan and no tool calls.`,
  'plan.approved': () => '[nodwyn] The plan was approved. Carry it out now.',
};

/** The envelope of a call the log holds no outcome for (the process died while it ran). */
export function interruptedEnvelope(call: ToolCall): Envelope {
  return envelope({
    category: 'OUTCOME_UNKNOWN',
    code: KernelCodes.TOOL_INTERRUPTED,
    operation: call.name,
    retryable: 'after_remediation',
    remediation: 'The run stopped while this call was in progress; check its effects before repeating it.',
  });
}
