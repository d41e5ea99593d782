import type { ClientEvent, ConfirmationRequested, Envelope, LogEvent } from '@nodwyn/protocol';
import type { SessionUpdate } from '../src/state/protocol-types.js';

const BASE = Date.parse('2026-12-01T10:00:00.000Z');

/** A log event as `_nodwyn/log` carries it (the hash chain is not checked by a front end). */
export function logEvent(session: string, seq: number, type: string, payload: Record<string, unknown>, actor = 'kernel'): LogEvent {
  return { session, seq, ts: new Date(BASE + seq * 1000).toISOString(), type, actor, payload, prev: '0'.repeat(64), hash: seq.toString(16).padStart(64, '0') };
}

export const log = (session: string, seq: number, type: string, payload: Record<string, unknown>, actor?: string): ClientEvent => ({
  type: 'log',
  sessionId: session,
  event: logEvent(session, seq, type, payload, actor),
});

export const update = (session: string, u: SessionUpdate): ClientEvent => ({ type: 'update', sessionId: session, update: u });

export const chunk = (session: string, text: string): ClientEvent => update(session, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

export const thought = (session: string, text: string): ClientEvent => update(session, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } });

export function envelope(code: string, remediation: string, category: Envelope['category'] = 'PRECONDITION_FAILED'): Envelope {
  return {
    status: 'error',
    category,
    operation: 'test',
    http_status: null,
    code,
    failed_parameter: null,
    received_value: null,
    expected: null,
    remediation,
    retryable: 'never',
    retry_after_ms: null,
    next_action: null,
    request_id: null,
    trace: { attempts: 1 },
    plugin: null,
  };
}

export function usage(session: string, call: { input: number; output: number }, totals: { input: number; output: number; cost: number; lastCost: number }, size = 100_000): ClientEvent {
  return update(session, {
    sessionUpdate: 'usage_update',
    used: call.input + call.output,
    size,
    cost: { amount: totals.cost, currency: 'USD' },
    _meta: { nodwyn: { lastCall: call, session: { input: totals.input, output: totals.output }, lastCallCostUsd: totals.lastCost } },
  });
}

export function confirmation(request: Partial<ConfirmationRequested> & Pick<ConfirmationRequested, 'sessionId' | 'callId'>): ClientEvent {
  const security = request.security ?? false;
  const kinds = security ? (['allow_once', 'reject_once'] as const) : (['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const);
  const names = { allow_once: 'Allow once', allow_always: 'Always allow', reject_once: 'Reject', reject_always: 'Always reject' };
  return {
    type: 'confirmation',
    request: {
      toolCallId: `3:${request.callId}`,
      tool: 'shell',
      tier: 'destructive',
      reason: 'rm is not on the allow-list',
      security,
      options: kinds.map((kind) => ({ optionId: kind, name: names[kind], kind })),
      ...request,
    },
  };
}

/**
 * One turn as the agent sends it to the client that prompted it (the shapes of packages/server's
 * session projector): the prompt logged, a streamed answer that reads a file, the tool's progress and
 * result, a streamed final answer, the turn's end. Seqs start at `seq`.
 */
export function turnWithTool(session: string, seq: number, prompt = 'What does src/a.ts export?'): ClientEvent[] {
  const call = { id: 'c1', name: 'read_file', args: { path: 'src/a.ts' } };
  const toolCallId = `${seq + 2}:c1`;
  return [
    log(session, seq, 'message.user', { text: prompt }, 'user'),
    log(session, seq + 1, 'turn.started', { provider: 'scripted', strategy: 'default', pid: 1 }),
    chunk(session, 'Let me read '),
    chunk(session, 'it.'),
    update(session, { sessionUpdate: 'tool_call', toolCallId, title: 'read_file src/a.ts', kind: 'read', status: 'pending', locations: [{ path: '/w/src/a.ts' }], rawInput: call.args }),
    usage(session, { input: 1200, output: 40 }, { input: 1200, output: 40, cost: 0.004, lastCost: 0.004 }),
    log(session, seq + 2, 'message.assistant', {
      text: 'Let me read it.',
      tool_calls: [call],
      usage: { input: 1200, output: 40 },
      stop_reason: 'tool_use',
      provider: 'scripted',
      model: 'scripted-1',
      cost_usd: 0.004,
    }, 'model'),
    update(session, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' }),
    update(session, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'export function parse() {}\nexport const VERSION = 2;' } }] }),
    log(session, seq + 3, 'tool.completed', { call_id: 'c1', name: 'read_file', content: 'export function parse() {}\nexport const VERSION = 2;' }, 'tool:read_file'),
    chunk(session, 'It exports **two** things:\n\n- `parse`\n'),
    chunk(session, '- `VERSION`\n'),
    usage(session, { input: 1300, output: 30 }, { input: 2500, output: 70, cost: 0.009, lastCost: 0.005 }),
    log(session, seq + 4, 'message.assistant', {
      text: 'It exports **two** things:\n\n- `parse`\n- `VERSION`\n',
      tool_calls: [],
      usage: { input: 1300, output: 30 },
      stop_reason: 'end_turn',
      provider: 'scripted',
      model: 'scripted-1',
      cost_usd: 0.005,
    }, 'model'),
    log(session, seq + 5, 'turn.ended', { reason: 'answer', answer: 'It exports two things' }),
  ];
}
