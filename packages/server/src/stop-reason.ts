import type { PromptResponse, StopReason } from '@agentclientprotocol/sdk';
import { KernelCodes, type RunResult } from '@nodwyn/kernel';
import { EnvelopeError } from '@nodwyn/plugin-api';
import { rpcError } from './rpc-error.js';

/** Budget codes that mean the model ran out of tokens rather than of turns. */
const TOKEN_CODES = new Set<string>([KernelCodes.BUDGET_TOKENS]);
/** Codes of a turn the security floor stopped: the agent refuses to go on. */
const REFUSAL_CODES = new Set<string>([KernelCodes.SECURITY_STRIKES_EXCEEDED]);

/**
 * How a turn's end reads in ACP. An answer is `end_turn`, or `max_tokens` / `refusal` when the model's
 * own last message stopped so; a budget is `max_tokens` for tokens and `max_turn_requests` for the
 * rest (turns, tool calls, cost, wall time) and for the progress guard; the security floor's stop is
 * `refusal`; a cancel is `cancelled`. Every stop but a plain answer carries its envelope in
 * `_meta.nodwyn`. A turn that failed (the provider, the loop) is a JSON-RPC error with the envelope as data.
 */
export function promptResponse(result: RunResult, lastStop: string | undefined): PromptResponse {
  const meta = (stopReason: StopReason): PromptResponse => ({
    stopReason,
    _meta: { nodwyn: { reason: result.reason, ...(result.envelope ? { envelope: result.envelope } : {}) } },
  });
  const code = result.envelope?.code ?? '';
  switch (result.reason) {
    case 'answer':
      if (lastStop === 'max_tokens') return meta('max_tokens');
      if (lastStop === 'refusal') return meta('refusal');
      return { stopReason: 'end_turn' };
    case 'cancelled':
      return meta('cancelled');
    case 'budget':
      if (REFUSAL_CODES.has(code)) return meta('refusal');
      return meta(TOKEN_CODES.has(code) ? 'max_tokens' : 'max_turn_requests');
    case 'progress':
      return meta('max_turn_requests');
    default:
      throw rpcError(result.envelope ? new EnvelopeError(result.envelope) : new Error(`the turn ended: ${result.reason}`), 'session/prompt');
  }
}
