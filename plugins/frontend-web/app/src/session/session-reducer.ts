import type { ClientEvent, LogEvent } from '@nodwyn/protocol';
import { progressText, toolProgressOf } from '@nodwyn/protocol/tool-progress';
import { itemsOfPage, reduceLog } from './reduce-log.js';
import { emptySession, type SessionState, type SessionUpdate, type UpdateOf } from './session-items.js';
import { outcomeFromUpdate } from './tool-outcome.js';

/** What can happen to a session view: the client's events, and what the page itself did. */
export type SessionAction =
  | { readonly type: 'client'; readonly event: ClientEvent }
  | { readonly type: 'earlier'; readonly events: readonly LogEvent[] }
  | { readonly type: 'sent' }
  | { readonly type: 'cancelling' };

function usage(state: SessionState, update: UpdateOf<'usage_update'>): SessionState {
  const meta = (update._meta as { nodwyn?: { session?: { input: number; output: number } } } | null | undefined)?.nodwyn;
  return {
    ...state,
    status: {
      ...state.status,
      used: update.used,
      size: update.size,
      costUsd: update.cost?.amount ?? state.status.costUsd,
      sessionTokens: meta?.session ? meta.session.input + meta.session.output : state.status.sessionTokens,
    },
  };
}

function toolCallUpdate(state: SessionState, update: UpdateOf<'tool_call_update'>): SessionState {
  const live = state.tools.find((t) => t.toolCallId === update.toolCallId);
  if (!live) return state;
  const status = update.status ?? live.status;
  const finished = status === 'completed' || status === 'failed';
  const progress = toolProgressOf(update._meta);
  const changed = {
    ...live,
    status,
    ...(update.title ? { title: update.title } : {}),
    ...(progress ? { progress: progressText(progress) } : {}),
    ...(finished ? { outcome: outcomeFromUpdate(update) } : {}),
  };
  return { ...state, tools: state.tools.map((t) => (t === live ? changed : t)) };
}

/**
 * What one ACP `session/update` changes. Updates drive only what is live (the streaming answer, running
 * tools, the plan, the status line); everything finished is drawn from the log (`reduceLog`).
 */
export function reduceUpdate(state: SessionState, update: SessionUpdate): SessionState {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return update.content.type === 'text' ? { ...state, stream: { ...state.stream, text: state.stream.text + update.content.text } } : state;
    case 'agent_thought_chunk':
      return update.content.type === 'text' ? { ...state, stream: { ...state.stream, thought: state.stream.thought + update.content.text } } : state;
    case 'tool_call': {
      const existing = state.tools.find((t) => t.toolCallId === update.toolCallId);
      if (existing) return { ...state, tools: state.tools.map((t) => (t === existing ? { ...t, title: update.title } : t)) };
      const status = update.status === 'in_progress' ? 'in_progress' : 'pending';
      return { ...state, tools: [...state.tools, { toolCallId: update.toolCallId, title: update.title, status }] };
    }
    case 'tool_call_update':
      return toolCallUpdate(state, update);
    case 'plan':
      return { ...state, plan: update.entries.map((e) => ({ content: e.content, status: e.status })) };
    case 'usage_update':
      return usage(state, update);
    case 'session_info_update':
      return typeof update.title === 'string' ? { ...state, title: update.title } : state;
    default:
      return state;
  }
}

/** The session view after `action`; events of other sessions change nothing. */
export function reduceSession(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'sent':
      return { ...state, turn: 'running' };
    case 'cancelling':
      return state.turn === 'idle' ? state : { ...state, turn: 'cancelling' };
    case 'earlier': {
      const first = state.firstSeq ?? Number.POSITIVE_INFINITY;
      const events = action.events.filter((e) => e.seq < first);
      if (events.length === 0) return state;
      const items = itemsOfPage(state.sessionId, events, emptySession);
      return { ...state, items: [...items, ...state.items], firstSeq: events[0]!.seq };
    }
    case 'client': {
      const event = action.event;
      if (event.type === 'log') return event.sessionId === state.sessionId ? reduceLog(state, event.event) : state;
      if (event.type === 'update') return event.sessionId === state.sessionId ? reduceUpdate(state, event.update) : state;
      if (event.type === 'confirmation') {
        const request = event.request;
        if (request.sessionId !== state.sessionId || state.questions.some((q) => q.callId === request.callId)) return state;
        return { ...state, questions: [...state.questions, request] };
      }
      return state;
    }
  }
}
