import type { PlanEntry, SessionUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { Envelope, LogEvent, ToolCall, ToolProgressView, Usage } from '@nodwyn/protocol';
import { resultContent, toolView } from './tool-view.js';

/** What the projector needs to know about tools: the ACP kind a primitive declared. */
export type KindOf = (name: string) => ToolKind;

/** `replay` shows everything from the log; `live` skips what already streamed as deltas (the answer's text). */
export type ProjectionMode = 'replay' | 'live';

interface KnownCall {
  readonly toolCallId: string;
  readonly name: string;
  readonly args: unknown;
  readonly kind: ToolKind;
}

/** The session's running totals, for `usage_update`. */
export interface Totals {
  input: number;
  output: number;
  costUsd: number;
}

/**
 * Turns a session's log events into ACP `session/update`s, the same way for `session/load`'s replay and
 * for live clients, so a replayed session looks exactly as it did live. It keeps what later events need:
 * the calls of each assistant message (an outcome names only its call id) and the session's token and
 * cost totals.
 */
export class SessionProjector {
  readonly #calls = new Map<string, KnownCall>();
  #totals: Totals | undefined;

  /**
   * `earlier(seq)` gives the session's totals before event `seq`, read only when the first `usage_update`
   * needs them; a projector shown the whole session starts from zero.
   */
  constructor(
    private readonly workspace: string,
    private readonly kindOf: KindOf,
    private readonly windowTokens: () => number,
    private readonly earlier: (seq: number) => Totals = () => ({ input: 0, output: 0, costUsd: 0 }),
  ) {}

  /** ACP's id of a model call: the seq of the message that made it, so ids stay unique across turns. */
  toolCallId(callId: string): string | undefined {
    return this.#calls.get(callId)?.toolCallId;
  }

  /** The call a model made, by its id, while the session is live. */
  call(callId: string): { name: string; args: unknown; kind: ToolKind; toolCallId: string } | undefined {
    return this.#calls.get(callId);
  }

  /** Learns the calls of an assistant message without projecting it (a live session starting from its tail). */
  learnCalls(event: LogEvent): void {
    for (const call of ((event.payload as { tool_calls?: ToolCall[] }).tool_calls ?? [])) {
      this.#calls.set(call.id, { toolCallId: `${event.seq}:${call.id}`, name: call.name, args: call.args, kind: this.kindOf(call.name) });
    }
  }

  /** The updates one event stands for (often none). */
  project(event: LogEvent, mode: ProjectionMode): SessionUpdate[] {
    const p = event.payload as Record<string, unknown>;
    switch (event.type) {
      case 'message.user':
        return [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: String(p.text ?? '') } }];
      case 'message.assistant':
        return this.#assistant(event, p, mode);
      case 'tool.completed':
      case 'tool.failed':
      case 'tool.denied':
        return this.#outcome(event.type, p);
      case 'plan.approved':
      case 'plan.revise':
        return [planUpdate(event.type, p)];
      case 'session.titled':
        return [{ sessionUpdate: 'session_info_update', title: String(p.title ?? ''), updatedAt: event.ts }];
      default:
        return [];
    }
  }

  /** `tool_call_update` in progress, when a call goes to the guard. */
  started(callId: string): SessionUpdate[] {
    const call = this.#calls.get(callId);
    return call ? [{ sessionUpdate: 'tool_call_update', toolCallId: call.toolCallId, status: 'in_progress' }] : [];
  }

  /** A running call's report of how far it has got, in `_meta.nodwyn.progress` (see `toolProgressOf`). */
  progress(callId: string, progress: ToolProgressView): SessionUpdate[] {
    const call = this.#calls.get(callId);
    return call ? [{ sessionUpdate: 'tool_call_update', toolCallId: call.toolCallId, status: 'in_progress', _meta: { nodwyn: { progress } } }] : [];
  }

  #assistant(event: LogEvent, p: Record<string, unknown>, mode: ProjectionMode): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    if (mode === 'replay') {
      for (const block of (p.thinking as { text: string; redacted?: boolean }[] | undefined) ?? []) {
        if (!block.redacted && block.text) updates.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: block.text } });
      }
      if (typeof p.text === 'string' && p.text.length > 0) updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: p.text } });
    }
    this.learnCalls(event);
    for (const call of (p.tool_calls as ToolCall[] | undefined) ?? []) {
      const known = this.#calls.get(call.id)!;
      const view = toolView(call.name, known.kind, call.args, this.workspace);
      updates.push({ sessionUpdate: 'tool_call', toolCallId: known.toolCallId, title: view.title, kind: known.kind, status: 'pending', locations: view.locations, rawInput: call.args });
    }
    const usage = p.usage as Usage | undefined;
    if (usage) updates.push(this.#usage(event.seq, usage, typeof p.cost_usd === 'number' ? p.cost_usd : 0));
    return updates;
  }

  #outcome(type: string, p: Record<string, unknown>): SessionUpdate[] {
    if (p.origin === 'host') return [];
    const call = this.#calls.get(String(p.call_id));
    if (!call) return [];
    const envelope = p.envelope as Envelope | undefined;
    const content = resultContent(call.kind, call.args, this.workspace, { content: typeof p.content === 'string' ? p.content : undefined, envelope });
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: call.toolCallId,
        status: type === 'tool.completed' ? 'completed' : 'failed',
        content,
        ...(envelope ? { rawOutput: envelope } : {}),
      },
    ];
  }

  #usage(seq: number, usage: Usage, costUsd: number): SessionUpdate {
    const totals = (this.#totals ??= this.earlier(seq));
    totals.input += usage.input;
    totals.output += usage.output;
    totals.costUsd += costUsd;
    return {
      sessionUpdate: 'usage_update',
      // The last call's prompt plus its answer is what the next call's window starts from.
      used: usage.input + usage.output,
      size: this.windowTokens(),
      cost: { amount: totals.costUsd, currency: 'USD' },
      _meta: { nodwyn: { lastCall: usage, session: { input: totals.input, output: totals.output }, lastCallCostUsd: costUsd } },
    };
  }
}

/** The judge's plan (or the person's), one entry per numbered or bulleted line, with its verdict in `_meta`. */
function planUpdate(type: string, p: Record<string, unknown>): SessionUpdate {
  const approved = type === 'plan.approved';
  const lines = String(p.plan ?? '')
    .split('\n')
    .map((line) => line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim())
    .filter((line) => line.length > 0);
  const entries: PlanEntry[] = lines.map((content) => ({ content, priority: 'medium', status: 'pending' }));
  const verdict = { approved, by: p.by, round: p.round, ...(p.score !== undefined ? { score: p.score } : {}), ...(p.feedback ? { feedback: p.feedback } : {}) };
  return { sessionUpdate: 'plan', entries, _meta: { nodwyn: verdict } };
}
