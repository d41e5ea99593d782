import type { LogEvent } from '@nodwyn/protocol';
import { envelopeOf } from '../shown-error.js';
import { outcomeFromLog } from './tool-outcome.js';
import { withItems, type LiveTool, type NewItem, type OpenCall, type SessionState, type ToolStatus } from './session-items.js';

type Payload = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A call's title as people read it: the tool and its main argument (`read_file src/a.ts`). */
export function toolTitle(name: string, args: unknown): string {
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const main = str(a.path) ?? str(a.command) ?? str(a.url) ?? str(a.pattern) ?? str(a.query) ?? str(a.name);
  return main === undefined ? name : `${name} ${main.length > 120 ? `${main.slice(0, 117)}…` : main}`;
}

function assistant(state: SessionState, event: LogEvent, p: Payload): SessionState {
  const thinking = ((p.thinking as { text?: string; redacted?: boolean }[] | undefined) ?? []).filter((b) => !b.redacted && b.text).map((b) => b.text!);
  const text = str(p.text) ?? '';
  const calls: Record<string, OpenCall> = { ...state.calls };
  let tools: LiveTool[] = [...state.tools];
  for (const call of (p.tool_calls as { id: string; name: string; args: unknown }[] | undefined) ?? []) {
    // The agent's ACP id of a model call is `<seq of its message>:<call id>` (docs/frontends.md).
    const toolCallId = `${event.seq}:${call.id}`;
    const live = tools.find((t) => t.toolCallId === toolCallId);
    const title = live?.title ?? toolTitle(call.name, call.args);
    calls[call.id] = { name: call.name, args: call.args, title, toolCallId };
    tools = live ? tools.map((t) => (t === live ? { ...t, callId: call.id } : t)) : [...tools, { toolCallId, callId: call.id, title, status: 'pending' }];
  }
  const provider = str(p.provider);
  const usage = p.usage as { input: number; output: number } | undefined;
  const status = {
    ...state.status,
    ...(provider ? { provider, model: str(p.model) } : {}),
    ...(usage ? { used: usage.input + usage.output, sessionTokens: state.status.sessionTokens + usage.input + usage.output } : {}),
    ...(typeof p.cost_usd === 'number' ? { costUsd: (state.status.costUsd ?? 0) + p.cost_usd } : {}),
  };
  const next: SessionState = { ...state, stream: { text: '', thought: '' }, calls, tools, status };
  return text.trim().length > 0 || thinking.length > 0 ? withItems(next, { kind: 'assistant', seq: event.seq, text, thinking }) : next;
}

function outcome(state: SessionState, event: LogEvent, p: Payload): SessionState {
  if (p.origin === 'host') return state;
  const callId = String(p.call_id);
  const call = state.calls[callId];
  const live = state.tools.find((t) => t.callId === callId);
  const status: ToolStatus = event.type === 'tool.completed' ? 'completed' : event.type === 'tool.failed' ? 'failed' : 'denied';
  const { [callId]: _done, ...calls } = state.calls;
  const next = { ...state, calls, tools: state.tools.filter((t) => t !== live) };
  const fromLog = outcomeFromLog(p, call?.args ?? p.args);
  // The live update's diff is the agent's own; the log's result text is what the model saw.
  const merged = live?.outcome?.diff && !fromLog.envelope ? { ...fromLog, diff: live.outcome.diff } : fromLog;
  return withItems(next, { kind: 'tool', seq: event.seq, title: live?.title ?? call?.title ?? toolTitle(String(p.name), call?.args ?? p.args), status, outcome: merged });
}

function plan(event: LogEvent, p: Payload): NewItem {
  const entries = String(p.plan ?? '')
    .split('\n')
    .map((line) => line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').trim())
    .filter((line) => line.length > 0);
  return { kind: 'plan', seq: event.seq, entries, approved: event.type === 'plan.approved', ...(str(p.feedback) ? { feedback: str(p.feedback) } : {}) };
}

/** Ends the turn: what still streamed or ran is kept as interrupted, and open questions close. */
function turnEnded(state: SessionState, event: LogEvent, p: Payload): SessionState {
  const items: NewItem[] = [];
  const seq = event.seq;
  if (state.stream.text.trim() || state.stream.thought.trim()) {
    items.push({ kind: 'assistant', seq, text: state.stream.text, thinking: state.stream.thought.trim() ? [state.stream.thought] : [], partial: true });
  }
  for (const tool of state.tools) items.push({ kind: 'tool', seq, title: tool.title, status: 'interrupted', outcome: tool.outcome ?? {} });
  const reason = String(p.reason ?? 'answer');
  const envelope = envelopeOf(p.envelope);
  if (reason !== 'answer') items.push({ kind: 'turn', seq, reason, ...(envelope ? { envelope } : {}) });
  return withItems({ ...state, turn: 'idle', stream: { text: '', thought: '' }, tools: [], calls: {}, questions: [] }, ...items);
}

function decided(state: SessionState, event: LogEvent, p: Payload): SessionState {
  const callId = String(p.call_id);
  const option = str(p.option)?.replace('_', ' ');
  const verb = p.granted === true ? 'Allowed' : 'Rejected';
  const next = { ...state, questions: state.questions.filter((q) => q.callId !== callId) };
  return withItems(next, { kind: 'notice', seq: event.seq, tone: 'dim', text: `${verb} ${String(p.name)}${option ? ` (${option})` : ''}, answered by ${String(p.by)}` });
}

/**
 * What one log event changes. The log is the source of everything finished on screen, so a session's
 * history, the pages loaded on scroll-up and its live events are drawn by this one function.
 */
export function reduceLog(state: SessionState, event: LogEvent): SessionState {
  if (event.seq <= state.lastSeq) return state;
  const next = reduceEvent({ ...state, lastSeq: event.seq, firstSeq: state.firstSeq ?? event.seq }, event);
  return next;
}

function reduceEvent(state: SessionState, event: LogEvent): SessionState {
  const p = event.payload;
  switch (event.type) {
    case 'session.created':
      return { ...state, ...(str(p.workspace) ? { workspace: str(p.workspace) } : {}), ...(str(p.title) ? { title: str(p.title) } : {}) };
    case 'session.titled':
      return str(p.title) ? { ...state, title: str(p.title) } : state;
    case 'session.configured':
      return { ...state, status: { ...state.status, ...(str(p.provider) ? { provider: str(p.provider) } : {}), model: str(p.model) } };
    case 'message.user':
      return withItems(state, { kind: 'user', seq: event.seq, text: str(p.text) ?? '' });
    case 'message.assistant':
      return assistant(state, event, p);
    case 'tool.completed':
    case 'tool.failed':
    case 'tool.denied':
      return outcome(state, event, p);
    case 'plan.requested':
      return withItems(state, { kind: 'notice', seq: event.seq, tone: 'dim', text: `Plan requested: ${String(p.reason ?? '')}` });
    case 'plan.approved':
    case 'plan.revise':
      return withItems(state, plan(event, p));
    case 'turn.started':
      return { ...state, turn: state.turn === 'cancelling' ? 'cancelling' : 'running' };
    case 'turn.ended':
      return turnEnded(state, event, p);
    case 'confirmation.decided':
      return decided(state, event, p);
    case 'confirmation.expired':
      return withItems(state, { kind: 'notice', seq: event.seq, tone: 'warn', text: `The question about ${String(p.name)} expired: nobody answered before nodwyn stopped.` });
    case 'security.withheld':
      return withItems(state, { kind: 'notice', seq: event.seq, tone: 'warn', text: 'Output withheld: it held a value remembered as a secret. A strike was recorded.' });
    default:
      return state;
  }
}

/**
 * The items of an earlier page of the log (scrolling up), to be put before what is shown: reduced on
 * their own, since the calls they open are closed by events already shown.
 */
export function itemsOfPage(sessionId: string, events: readonly LogEvent[], empty: (id: string) => SessionState): SessionState['items'] {
  let page = empty(sessionId);
  for (const event of events) page = reduceLog(page, event);
  return page.items;
}
