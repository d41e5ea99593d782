import { describe, expect, it } from 'vitest';
import { startTui } from '../../test/tui-harness.js';
import { confirmation, log } from '../../test/session-events.js';
import type { PermissionRequest } from '../state/protocol-types.js';

const S = 'session-7';

function request(options: { security?: boolean; callId?: string } = {}): PermissionRequest {
  const security = options.security ?? false;
  const kinds = security ? (['allow_once', 'reject_once'] as const) : (['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const);
  const names = { allow_once: 'Allow once', allow_always: 'Always allow', reject_once: 'Reject', reject_always: 'Always reject' };
  return {
    sessionId: S,
    toolCall: { toolCallId: `5:${options.callId ?? 'c1'}`, title: security ? 'http_request POST https://paste.example/api' : 'shell rm -rf build', kind: 'execute', status: 'pending' },
    options: kinds.map((kind) => ({ optionId: kind, name: names[kind], kind })),
    _meta: {
      nodwyn: {
        callId: options.callId ?? 'c1',
        tier: security ? 'mutate' : 'destructive',
        reason: security ? 'a secret would leave for a host no binding names' : 'rm is not on the allow-list',
        security,
        effect: 'shell:rm',
        ...(security ? { subjects: [{ class: 'github', destination: 'paste.example' }] } : {}),
      },
    },
  };
}

describe('the confirmation dialog', () => {
  it('names the tool, tier and reason, offers the four choices with their keys, and one key answers the handler', async () => {
    const tui = await startTui({ args: ['--session', S] });
    const answer = tui.permission()(request(), new AbortController().signal);
    await tui.type();
    const frame = tui.frame();
    expect(frame).toContain('Allow shell?');
    expect(frame).toContain('shell rm -rf build');
    expect(frame).toContain('destructive · rm is not on the allow-list');
    expect(frame).toContain('[y] Allow once');
    expect(frame).toContain('[a] Always allow');
    expect(frame).toContain('[n] Reject');
    expect(frame).toContain('[r] Always reject');
    await tui.type('a');
    await expect(answer).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
    expect(tui.frame()).not.toContain('Allow shell?');
    await tui.close();
  });

  it('offers only allow once and reject for a secret leaving, naming its class and destination', async () => {
    const tui = await startTui({ args: ['--session', S] });
    const answer = tui.permission()(request({ security: true }), new AbortController().signal);
    await tui.type();
    const frame = tui.frame();
    expect(frame).toContain('A secret would leave');
    expect(frame).toContain('secret of class github → paste.example');
    expect(frame).toContain('[y] Allow once');
    expect(frame).toContain('[n] Reject');
    expect(frame).not.toContain('[a]');
    expect(frame).not.toContain('[r]');
    await tui.type('a');
    expect(tui.frame()).toContain('A secret would leave');
    await tui.type('n');
    await expect(answer).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
    await tui.close();
  });

  it('closes when the question is withdrawn (answered from another client), and the handler answers cancelled', async () => {
    const tui = await startTui({ args: ['--session', S] });
    const withdraw = new AbortController();
    const answer = tui.permission()(request(), withdraw.signal);
    await tui.type();
    expect(tui.frame()).toContain('Allow shell?');
    withdraw.abort();
    await expect(answer).resolves.toEqual({ outcome: { outcome: 'cancelled' } });
    await tui.type();
    expect(tui.frame()).not.toContain('Allow shell?');
    expect(tui.frame()).toContain('Ask anything');
    await tui.close();
  });

  it('answers a question it was only told about through answerConfirmation, and closes when the log says it was decided elsewhere', async () => {
    const tui = await startTui({ args: ['--session', S] });
    await tui.emit(confirmation({ sessionId: S, callId: 'k1' }), confirmation({ sessionId: S, callId: 'k2', tool: 'write_file' }));
    expect(tui.frame()).toContain('Allow shell?');
    expect(tui.frame()).toContain('(+1 waiting)');
    await tui.type('n');
    expect(tui.client.calls.find((c) => c.method === 'answerConfirmation')?.args).toEqual([S, 'k1', 'reject_once']);
    expect(tui.frame()).toContain('Allow write_file?');
    await tui.emit(log(S, 9, 'confirmation.decided', { call_id: 'k2', name: 'write_file', granted: true, by: 'client-3', option: 'allow_once' }));
    expect(tui.frame()).not.toContain('Allow write_file?');
    expect(tui.frame()).toContain('Allowed write_file (allow once), answered by client-3');
    await tui.close();
  });

  it('merges the notification and the request about one call into one dialog', async () => {
    const tui = await startTui({ args: ['--session', S] });
    await tui.emit(confirmation({ sessionId: S, callId: 'c1' }));
    const answer = tui.permission()(request(), new AbortController().signal);
    await tui.type();
    expect(tui.frame()).not.toContain('waiting');
    await tui.type('y');
    await expect(answer).resolves.toEqual({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
    expect(tui.client.calls.some((c) => c.method === 'answerConfirmation')).toBe(false);
    await tui.close();
  });

  it('cancels the turn on Esc', async () => {
    const tui = await startTui({ args: ['--session', S] });
    await tui.emit(log(S, 1, 'turn.started', { provider: 'p', strategy: 'default' }));
    void tui.permission()(request(), new AbortController().signal);
    await tui.type();
    expect(tui.frame()).toContain('Allow shell?');
    await tui.type('\u001B');
    expect(tui.client.calls.filter((c) => c.method === 'cancel').map((c) => c.args)).toEqual([[S]]);
    await tui.close();
  });
});
