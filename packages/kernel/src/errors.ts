import { ContractCodes } from '@nodwyn/plugin-api';

/**
 * Codes of the kernel's envelopes (the `code` field). One place, so a reader can see every way the
 * kernel says no. The log's own codes live in `log/errors.ts`.
 */
export const KernelCodes = {
  PRIMITIVE_NAME_INVALID: 'PRIMITIVE_NAME_INVALID',
  PRIMITIVE_EXISTS: 'PRIMITIVE_EXISTS',
  PRIMITIVE_INVALID: 'PRIMITIVE_INVALID',
  TOOL_UNKNOWN: 'TOOL_UNKNOWN',
  /** A plugin's host call named a model tool; those run only as the model's calls on the turn floor. */
  HOST_CALL_MODEL_TOOL: 'HOST_CALL_MODEL_TOOL',
  TOOL_ARGS_INVALID: 'TOOL_ARGS_INVALID',
  TOOL_TIMEOUT: 'TOOL_TIMEOUT',
  TOOL_CANCELLED: 'TOOL_CANCELLED',
  TOOL_HANDLER_FAILED: 'TOOL_HANDLER_FAILED',
  TOOL_INTERRUPTED: 'TOOL_INTERRUPTED',
  TOOL_RESULT_INVALID: 'TOOL_RESULT_INVALID',
  GUARD_STAGE_FAILED: 'GUARD_STAGE_FAILED',
  GUARD_SLOT_RESERVED: 'GUARD_SLOT_RESERVED',
  CONFIRMATION_REQUIRED: ContractCodes.CONFIRMATION_REQUIRED,
  CONFIRMATION_DECLINED: ContractCodes.CONFIRMATION_DECLINED,
  /** The person answered "reject always" to calls of this effect earlier in the session. */
  APPROVAL_REFUSED: 'APPROVAL_REFUSED',
  /** The call was cancelled while it waited for a person's answer. */
  CONFIRMATION_CANCELLED: 'CONFIRMATION_CANCELLED',
  LOG_FILTER_FAILED: 'LOG_FILTER_FAILED',
  STORE_KEY_INVALID: 'STORE_KEY_INVALID',
  STORE_VALUE_INVALID: 'STORE_VALUE_INVALID',
  STORE_TRANSACTION_ASYNC: 'STORE_TRANSACTION_ASYNC',
  SESSION_NOT_FOUND: 'SESSION_NOT_FOUND',
  SESSION_SEQ_OUT_OF_RANGE: 'SESSION_SEQ_OUT_OF_RANGE',
  REGISTRY_DUPLICATE: 'REGISTRY_DUPLICATE',
  REGISTRY_UNKNOWN: 'REGISTRY_UNKNOWN',
  BUDGET_TURNS: 'BUDGET_TURNS',
  BUDGET_TOOL_CALLS: 'BUDGET_TOOL_CALLS',
  BUDGET_TOKENS: 'BUDGET_TOKENS',
  BUDGET_WALL_TIME: 'BUDGET_WALL_TIME',
  PROGRESS_REPEATED_CALL: 'PROGRESS_REPEATED_CALL',
  TURN_CANCELLED: 'TURN_CANCELLED',
  /** The process running the turn stopped (a crash, SIGKILL); a later one closed the turn. */
  TURN_INTERRUPTED: 'TURN_INTERRUPTED',
  LOOP_FOREIGN_CALL: 'LOOP_FOREIGN_CALL',
  LOOP_SKIPPED_CALL: 'LOOP_SKIPPED_CALL',
  LOOP_FAILED: 'LOOP_FAILED',
  /** A contributor of the agent's brief threw; its parts are left out of that turn (`context.failed`). */
  CONTEXT_CONTRIBUTOR_FAILED: 'CONTEXT_CONTRIBUTOR_FAILED',
  PROVIDER_FAILED: 'PROVIDER_FAILED',
  PLAN_REQUIRED: ContractCodes.PLAN_REQUIRED,
  BUDGET_COST: 'BUDGET_COST',
  EGRESS_SENDER_MISSING: 'EGRESS_SENDER_MISSING',
  SECURITY_OUTPUT_WITHHELD: 'SECURITY_OUTPUT_WITHHELD',
  SECURITY_STRIKES_EXCEEDED: 'SECURITY_STRIKES_EXCEEDED',
  /** A summary request named a span that is not whole steps of the session (a call without its result). */
  SUMMARY_SPAN_INVALID: 'SUMMARY_SPAN_INVALID',
  /** The summarising model gave no text, or no fewer tokens than the span it would replace. */
  SUMMARY_NOT_SMALLER: 'SUMMARY_NOT_SMALLER',
} as const;

/** A kernel envelope code. */
export type KernelCode = keyof typeof KernelCodes;
