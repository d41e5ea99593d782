import type { ClientEvent, ConfirmationRequested } from '@nodwyn/protocol';
import { fittingTail } from './history-budget.js';
import { reduceLog } from './reduce-log.js';
import { reduceUpdate } from './reduce-update.js';
import type { TuiAction } from './tui-action.js';
import { EMPTY_USAGE, initialState, withItems, type Question, type TuiState } from './tui-state.js';

/** Adds a question, or merges it with the one about the same call (told and asked both arrive). */
function withQuestion(state: TuiState, question: Question): TuiState {
  const existing = state.questions.find((q) => q.callId === question.callId);
  if (!existing) return { ...state, questions: [...state.questions, question] };
  // The notification names the tool exactly; the request carries the call's title and the secrets' places.
  const [told, asked] = question.asked ? [existing, question] : [question, existing];
  const merged: Question = {
    ...asked,
    tool: told.tool || asked.tool,
    tier: told.tier || asked.tier,
    reason: told.reason || asked.reason,
    security: told.security || asked.security,
    asked: told.asked || asked.asked,
    ...((asked.effects ?? told.effects) ? { effects: asked.effects ?? told.effects } : {}),
  };
  return { ...state, questions: state.questions.map((q) => (q === existing ? merged : q)) };
}

function told(request: ConfirmationRequested): Question {
  return { ...request, asked: false };
}

function connection(state: TuiState, event: Extract<ClientEvent, { type: 'connection' }>): TuiState {
  const was = state.connection.state;
  const next: TuiState = {
    ...state,
    connection: { state: event.state, ...(event.attempt !== undefined ? { attempt: event.attempt } : {}), ...(event.error ? { error: event.error } : {}) },
  };
  if (event.state === 'open' && was !== 'open') return withItems(next, { kind: 'notice', tone: 'dim', text: 'Reconnected to the daemon; the session resumed where it left off.' });
  if (event.state === 'closed' && was !== 'closed') {
    return withItems(next, { kind: 'notice', tone: 'error', text: `Lost the daemon${event.error ? `: ${event.error}` : ''}. Start it again (nodwyn serve), then attach.` });
  }
  return next;
}

/**
 * A state for another session: nothing of the last one's conversation live, the scrollback (already
 * printed) and the person's settings kept.
 */
function fresh(state: TuiState): TuiState {
  const { session: _session, ...base } = initialState();
  return {
    ...base,
    finished: state.finished,
    nextId: state.nextId,
    usage: EMPTY_USAGE,
    commands: state.commands,
    connection: state.connection,
    showThinking: state.showThinking,
    history: state.history,
    ...(state.setup ? { setup: state.setup } : {}),
  };
}

function event(state: TuiState, e: ClientEvent, at: number): TuiState {
  const current = state.session?.id;
  switch (e.type) {
    case 'update':
      return e.sessionId === current ? reduceUpdate(state, e.update, at) : state;
    case 'log':
      return e.sessionId === current ? reduceLog(state, e.event) : state;
    case 'confirmation':
      return e.request.sessionId === current ? withQuestion(state, told(e.request)) : state;
    case 'connection':
      return connection(state, e);
  }
}

/** Draws a session's tail: its events reduced, then only the newest items that fit the history budget. */
function history(state: TuiState, action: Extract<TuiAction, { type: 'history' }>): TuiState {
  const drawn = action.events.reduce((s, e) => event(s, e, action.at), state);
  const before = state.finished.length;
  const added = drawn.finished.slice(before);
  const kept = added.slice(added.length - fittingTail(added));
  const earlier = kept.length < added.length ? (kept[0]?.seq ?? action.fromSeq + 1) - 1 : action.fromSeq;
  const withoutAdded: TuiState = { ...drawn, finished: state.finished, nextId: drawn.nextId };
  const note = earlier > 0 && drawn.session
    ? [{ kind: 'notice' as const, tone: 'dim' as const, text: `${earlier} earlier events are in the log: nodwyn log show ${drawn.session.id}` }]
    : [];
  const noted = withItems(withoutAdded, ...note);
  return { ...noted, finished: [...noted.finished, ...kept] };
}

/** The TUI's one reducer: client events and the person's actions in, the next state out. */
export function tuiReducer(state: TuiState, action: TuiAction): TuiState {
  switch (action.type) {
    case 'events':
      return action.events.reduce((s, e) => event(s, e, action.at), state);
    case 'session.opened': {
      const opened: TuiState = {
        ...fresh(state),
        session: { id: action.sessionId, ...(action.title ? { title: action.title } : {}) },
        turn: action.running ? 'running' : 'idle',
      };
      return withItems(opened, { kind: 'session', sessionId: action.sessionId, ...(action.title ? { title: action.title } : {}) });
    }
    case 'history':
      return history(state, action);
    case 'session.left': {
      const left: TuiState = fresh(state);
      return withItems(left, { kind: 'notice', tone: 'dim', text: 'New session: it starts with your next prompt.' });
    }
    case 'prompt.sent': {
      const sent: TuiState = { ...state, turn: state.turn === 'idle' ? 'sending' : state.turn, history: [action.text, ...state.history.filter((p) => p !== action.text)] };
      return action.logged ? { ...sent, echo: action.text } : withItems(sent, { kind: 'user', text: action.text });
    }
    case 'prompt.ended': {
      const { echo: _echo, ...rest } = state;
      const idle: TuiState = { ...rest, turn: state.turn === 'sending' ? 'idle' : state.turn };
      // A command the agent answers itself streams its answer and logs no message: it ends here.
      if (idle.turn !== 'idle' || !idle.stream.text.trim()) return idle;
      return withItems({ ...idle, stream: { text: '', thought: '' } }, { kind: 'assistant', text: idle.stream.text, thinking: [] });
    }
    case 'cancel.requested':
      return state.turn === 'idle' ? state : { ...state, turn: 'cancelling' };
    case 'notice':
      return withItems(state, { kind: 'notice', text: action.text, tone: action.tone });
    case 'question.asked':
      return action.question.sessionId === state.session?.id ? withQuestion(state, action.question) : state;
    case 'question.closed':
      return { ...state, questions: state.questions.filter((q) => q.callId !== action.callId) };
    case 'thinking.toggled':
      return { ...state, showThinking: !state.showThinking };
    case 'picker.opened':
      return { ...state, picker: { sessions: action.sessions } };
    case 'picker.closed': {
      const { picker: _picker, ...rest } = state;
      return rest;
    }
    case 'setup.required':
      return { ...state, setup: { providers: action.providers } };
    case 'setup.finished': {
      const { setup: _setup, ...rest } = state;
      return rest;
    }
    case 'history.loaded':
      return { ...state, history: [...state.history, ...action.prompts.filter((p) => !state.history.includes(p))] };
  }
}
