import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { ConfirmationRequest } from '@nodwyn/plugin-api';
import type { ConfirmationRequested } from '@nodwyn/protocol';
import { describe, expect, it } from 'vitest';
import { ConfirmationBroker, optionsFor, type ConfirmationAudience } from './confirmation-broker.js';

function request(overrides: Partial<ConfirmationRequest> = {}): ConfirmationRequest {
  return { session: 's', callId: 'c1', name: 'shell', tier: 'destructive', reason: 'rm is destructive', args: { command: 'rm x' }, effect: 'shell:rm', ...overrides };
}

/** An audience that records what it was told and lets the test answer (or fail) the prompter's question. */
function audience(answer?: (request: RequestPermissionRequest) => Promise<RequestPermissionResponse>) {
  const told: ConfirmationRequested[] = [];
  const asked: { request: RequestPermissionRequest; signal: AbortSignal }[] = [];
  const value: ConfirmationAudience = {
    prompter: 'client-1:editor',
    tell: (q) => void told.push(q),
    ask: (r, signal) => {
      asked.push({ request: r, signal });
      return answer ? answer(r) : new Promise(() => undefined);
    },
  };
  return { value, told, asked };
}

describe('ConfirmationBroker', () => {
  it('tells every client and asks the prompter; the first answer wins and withdraws the prompter\'s question', async () => {
    const broker = new ConfirmationBroker('s', () => ({ toolCallId: '5:c1', title: 'shell rm x', kind: 'execute' }));
    const { value, told, asked } = audience();
    const answer = broker.confirmer(value).confirm(request());
    expect(told).toEqual([expect.objectContaining({ sessionId: 's', callId: 'c1', toolCallId: '5:c1', tool: 'shell', security: false, options: optionsFor(false) })]);
    expect(asked[0]!.request.toolCall).toMatchObject({ toolCallId: '5:c1', title: 'shell rm x', kind: 'execute', status: 'pending' });
    expect(broker.pending()).toHaveLength(1);
    expect(broker.answer('c1', 'allow_always', 'client-2:web')).toBe(true);
    expect(await answer).toEqual({ granted: true, by: 'client-2:web', option: 'allow_always' });
    expect(asked[0]!.signal.aborted).toBe(true);
    expect(broker.answer('c1', 'reject_once', 'client-1:editor')).toBe(false);
    expect(broker.pending()).toEqual([]);
  });

  it('takes the prompter\'s answer, and keeps the question for others when the prompter cannot answer', async () => {
    const broker = new ConfirmationBroker('s', () => undefined);
    const prompter = audience(async (r) => ({ outcome: { outcome: 'selected', optionId: r.options.find((o) => o.kind === 'reject_once')!.optionId } }));
    expect(await broker.confirmer(prompter.value).confirm(request())).toEqual({ granted: false, by: 'client-1:editor', option: 'reject_once' });
    const gone = audience(() => Promise.reject(new Error('the client left')));
    const answer = broker.confirmer(gone.value).confirm(request({ callId: 'c2' }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(broker.pending().map((q) => q.callId)).toEqual(['c2']);
    expect(broker.answer('c2', 'allow_once', 'client-3')).toBe(true);
    expect(await answer).toMatchObject({ granted: true, by: 'client-3' });
  });

  it('offers a security question no "always", and refuses an option it did not offer', async () => {
    const broker = new ConfirmationBroker('s', () => undefined);
    const { value, told } = audience();
    void broker.confirmer(value).confirm(request({ security: true }));
    expect(told[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'reject_once']);
    expect(broker.offers('c1', 'allow_always')).toBe(false);
    expect(broker.answer('c1', 'allow_always', 'client-2')).toBe(false);
    expect(broker.offers('c1', 'allow_once')).toBe(true);
    expect(broker.offers('nope', 'allow_once')).toBeUndefined();
  });

  it('settles a pending question as refused by "cancel" when the call is aborted', async () => {
    const broker = new ConfirmationBroker('s', () => undefined);
    const controller = new AbortController();
    const { value, asked } = audience();
    const answer = broker.confirmer(value).confirm(request({ signal: controller.signal }));
    controller.abort();
    expect(await answer).toEqual({ granted: false, by: 'cancel' });
    expect(asked[0]!.signal.aborted).toBe(true);
    expect(broker.pending()).toEqual([]);
  });
});
