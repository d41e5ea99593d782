import { envelope } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { promptResponse } from './stop-reason.js';

const stop = (code: string, category: 'BUDGET_EXCEEDED' | 'CANCELLED' | 'UPSTREAM_UNAVAILABLE' = 'BUDGET_EXCEEDED') => envelope({ category, code, remediation: 'x' });

describe('promptResponse', () => {
  it('maps how a turn ended to ACP stop reasons, with the envelope in _meta for every stop but a plain answer', () => {
    expect(promptResponse({ session: 's', reason: 'answer', answer: 'hi' }, 'end_turn')).toEqual({ stopReason: 'end_turn' });
    expect(promptResponse({ session: 's', reason: 'answer', answer: 'hi' }, 'max_tokens').stopReason).toBe('max_tokens');
    expect(promptResponse({ session: 's', reason: 'answer', answer: '' }, 'refusal').stopReason).toBe('refusal');
    expect(promptResponse({ session: 's', reason: 'cancelled', envelope: stop('TURN_CANCELLED', 'CANCELLED') }, undefined).stopReason).toBe('cancelled');
    expect(promptResponse({ session: 's', reason: 'budget', envelope: stop('BUDGET_TOKENS') }, undefined).stopReason).toBe('max_tokens');
    expect(promptResponse({ session: 's', reason: 'budget', envelope: stop('BUDGET_TURNS') }, undefined)).toMatchObject({ stopReason: 'max_turn_requests', _meta: { nodwyn: { reason: 'budget', envelope: { code: 'BUDGET_TURNS' } } } });
    expect(promptResponse({ session: 's', reason: 'budget', envelope: stop('SECURITY_STRIKES_EXCEEDED') }, undefined).stopReason).toBe('refusal');
    expect(promptResponse({ session: 's', reason: 'progress', envelope: stop('PROGRESS_REPEATED') }, undefined).stopReason).toBe('max_turn_requests');
  });

  it('turns a failed turn into a JSON-RPC error whose data is the envelope, unchanged', () => {
    const failed = stop('PROVIDER_FAILED', 'UPSTREAM_UNAVAILABLE');
    expect(() => promptResponse({ session: 's', reason: 'failed', envelope: failed }, undefined)).toThrow(expect.objectContaining({ code: -32000, data: failed }));
  });
});
