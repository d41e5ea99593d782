import type { LogEvent, ToolCall, Usage } from '@nodwyn/protocol';
import { sanitize } from '../terminal/sanitize.js';
import type { FinishedItem, NewItem, ToolEnd } from './finished-item.js';
import { envelopeIn, outcomeFromLog } from './tool-outcome.js';
import { toolTitle } from './tool-title.js';
import { withItems, type LiveTool, type OpenCall, type TuiState } from './tui-state.js';

type Payload = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function assistant(state: TuiState, event: LogEvent, p: Payload): TuiState {
  const thinking = ((p.thinking as { text?: string; redacted?: boolean }[] | undefined) ?? []).filter((b) => !b.redacted && b.text).map((b) => b.text!);
  const text = str(p.text) ?? '';
  const calls: Record<string, OpenCall> = { ...state.calls };
  let tools: LiveTool[] = [...state.tools];
  const at = Date.parse(event.ts);
  for (const call of (p.tool_calls as ToolCall[] | undefined) ?? []) {
    // The agent's ACP id of a model call is `<seq of its message>:<call id>`.
    const toolCallId = `${event.seq}:${call.id}`;
    const live = tools.find((t) => t.toolCallId === toolCallId);
    const title = live?.title ?? toolTitle(call.name, call.args);
    calls[call.id] = { name: call.name, args: call.args, title, toolCallId };
    tools = live
      ? tools.map((t) => (t === live ? { ...t, callId: call.id } : t))
      : [...tools, { toolCallId, callId: call.id, title, status: 'pending', startedAt: Number.isFinite(at) ? at : Date.now() }];
  }
  const provider = str(p.provider);
  let next: TuiState = { ...state, stream: { text: '', thought: '' }, calls, tools, ...(provider ? { model: { provider, ...(str(p.model) ? { model: str(p.model) } : {}) } } : {}) };
  const usage = p.usage as Usage | undefined;
  if (usage && next.usage.partial) {
    next = {
      ...next,
      usage: {
        ...next.usage,
        used: usage.input + usage.output,
        sessionTokens: next.usage.sessionTokens + usage.input + usage.output,
        costUsd: (next.usage.costUsd ?? 0) + (typeof p.cost_usd === 'number' ? p.cost_usd : 0),
      },
    };
  }
  return text.trim().length > 0 || thinking.length > 0 ? withItems(next, { kind: 'assistant', text, thinking }) : next;
}

function outcome(state: TuiState, event: LogEvent, p: Payload): TuiState {
  if (p.origin === 'host') return state;
  const callId = String(p.call_id);
  const call = state.calls[callId];
  const live = state.tools.find((t) => t.callId === callId);
  const args = call?.args ?? p.args;
  const end: ToolEnd = event.type === 'tool.completed' ? 'completed' : event.type === 'tool.failed' ? 'failed' : 'denied';
  const ended = Date.parse(event.ts);
  const seconds = live && Number.isFinite(ended) ? Math.max(0, (ended - live.startedAt) / 1000) : undefined;
  const { [callId]: _done, ...calls } = state.calls;
  const next = { ...state, calls, tools: state.tools.filter((t) => t !== live) };
  return withItems(next, {
    kind: 'tool',
    title: live?.title ?? call?.title ?? toolTitle(String(p.name), args),
    end,
    outcome: live?.outcome ?? outcomeFromLog(p, args),
    ...(seconds !== undefined ? { seconds } : {}),
  });
}

function plan(p: Payload, approved: boolean): NewItem {
  const entries = String(p.plan ?? '')
    .split('\n')
    .map((line) => sanitize(line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim()))
    .filter((line) => line.length > 0);
  const score = typeof p.score === 'number' ? p.score : undefined;
  const round = typeof p.round === 'number' ? p.round : undefined;
  const verdict = { approved, ...(str(p.by) ? { by: str(p.by) } : {}), ...(round !== undefined ? { round } : {}), ...(score !== undefined ? { score } : {}), ...(str(p.feedback) ? { feedback: str(p.feedback) } : {}) };
  return { kind: 'plan', entries, verdict };
}

/** Ends the turn: what still streamed or ran is printed as interrupted, and open questions close. */
function turnEnded(state: TuiState, p: Payload): TuiState {
  const items: NewItem[] = [];
  if (state.stream.text.trim() || state.stream.thought.trim()) {
    items.push({ kind: 'assistant', text: state.stream.text, thinking: state.stream.thought.trim() ? [state.stream.thought] : [], partial: true });
  }
  for (const tool of state.tools) items.push({ kind: 'tool', title: tool.title, end: 'interrupted', outcome: tool.outcome ?? {} });
  const reason = String(p.reason ?? 'answer');
  const envelope = envelopeIn(p.envelope);
  if (reason !== 'answer') items.push({ kind: 'turn', reason, ...(envelope ? { envelope } : {}) });
  const { echo: _echo, ...rest } = state;
  return withItems({ ...rest, turn: 'idle', stream: { text: '', thought: '' }, tools: [], calls: {}, questions: [] }, ...items);
}

function decided(state: TuiState, p: Payload): TuiState {
  const callId = String(p.call_id);
  const option = str(p.option)?.replace('_', ' ');
  const verb = p.granted === true ? 'Allowed' : 'Rejected';
  const next = { ...state, questions: state.questions.filter((q) => q.callId !== callId) };
  return withItems(next, { kind: 'notice', tone: 'dim', text: `${verb} ${String(p.name)}${option ? ` (${option})` : ''}, answered by ${String(p.by)}` });
}

/**
 * What one log event changes: the log is the source of everything finished on screen, so a session's
 * history and its live events are drawn by this one function. Items it adds carry the event's seq.
 */
export function reduceLog(state: TuiState, event: LogEvent): TuiState {
  const next = reduceEvent(state, event);
  if (next.finished === state.finished) return next;
  // `withItems` made this array just now: stamping it in place is invisible to anyone else.
  const finished = next.finished as FinishedItem[];
  for (let i = state.finished.length; i < finished.length; i++) finished[i] = { ...finished[i]!, seq: event.seq };
  return next;
}

function reduceEvent(state: TuiState, event: LogEvent): TuiState {
  const p = event.payload;
  switch (event.type) {
    case 'session.created':
    case 'session.titled': {
      const title = str(p.title);
      return title && state.session ? { ...state, session: { ...state.session, title } } : state;
    }
    case 'message.user': {
      const { echo: _echo, ...rest } = state;
      return withItems(rest, { kind: 'user', text: sanitize(str(p.text) ?? '') });
    }
    case 'message.assistant':
      return assistant(state, event, p);
    case 'tool.completed':
    case 'tool.failed':
    case 'tool.denied':
      return outcome(state, event, p);
    case 'plan.requested':
      return withItems(state, { kind: 'notice', tone: 'dim', text: `Plan requested: ${sanitize(String(p.reason ?? ''))}` });
    case 'plan.approved':
    case 'plan.revise':
      return withItems(state, plan(p, event.type === 'plan.approved'));
    case 'turn.started':
      return { ...state, turn: state.turn === 'cancelling' ? 'cancelling' : 'running', usage: { ...state.usage, turnTokens: 0, turnCostUsd: 0 } };
    case 'turn.ended':
      return turnEnded(state, p);
    case 'confirmation.decided':
      return decided(state, p);
    case 'confirmation.expired':
      return withItems(state, { kind: 'notice', tone: 'warn', text: `The question about ${String(p.name)} expired: nobody answered before nodwyn stopped.` });
    case 'security.withheld': {
      const classes = Array.isArray(p.classes) && p.classes.length > 0 ? ` (${p.classes.join(', ')})` : '';
      return withItems(state, { kind: 'notice', tone: 'warn', text: `Output withheld: it held a value remembered as a secret${classes}. A strike was recorded.` });
    }
    default:
      return state;
  }
}
