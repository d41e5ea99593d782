import type { LogEvent } from '@nodwyn/protocol';
import type { AppContext, Page } from '../app-context.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';
import { routeHash, type Route } from '../route.js';
import { VirtualList } from '../virtual-list.js';
import { answerView, itemView, liveToolView, questionView } from './item-view.js';
import { emptySession, type Item, type SessionState } from './session-items.js';
import { reduceSession, type SessionAction } from './session-reducer.js';
import { statusText } from './status-line.js';

/** How many of the latest events a session opens with; earlier ones load on scroll-up. */
export const TAIL_EVENTS = 60;
const PAGE = 200;

/** The seq to attach from so only the tail arrives: the log's head (else the sessions list's count) less `TAIL_EVENTS`. */
async function attachFrom(context: AppContext, sessionId: string): Promise<number> {
  const head = await context.client.console.logEvents({ sessionId, limit: 1 }).then(
    (page) => page.head,
    async () => (await context.client.listSessions()).find((s) => s.sessionId === sessionId)?.events ?? 0,
  );
  return Math.max(0, head - TAIL_EVENTS);
}

/**
 * Attaches from the tail. The client drops log events at or below the last seq it saw of a session, so a
 * session seen before in this page has its tail read from the log first, then attaches from there.
 */
async function open(context: AppContext, sessionId: string, replay: (event: LogEvent) => void): Promise<void> {
  const seen = context.client.lastSeq(sessionId);
  if (seen === 0) {
    const from = await attachFrom(context, sessionId);
    performance.mark('nodwyn:session-head');
    await context.client.attach(sessionId, from);
    return;
  }
  const page = await context.client.console.logEvents({ sessionId, beforeSeq: seen + 1, limit: TAIL_EVENTS });
  for (const event of page.events) replay(event);
  await context.client.attach(sessionId, seen);
}

function promptForm(onSend: (text: string) => void, onCancel: () => void): { form: HTMLFormElement; cancel: HTMLButtonElement; input: HTMLTextAreaElement } {
  const input = h('textarea', { id: 'prompt', name: 'prompt', rows: 3, placeholder: 'Ask nodwyn… (Enter sends, Shift+Enter for a new line)', 'aria-label': 'Prompt' });
  const cancel = h('button', { type: 'button', class: 'secondary', disabled: true, onClick: onCancel }, 'Cancel');
  const form = h('form', { class: 'prompt' }, input, h('div', { class: 'actions' }, cancel, h('button', { type: 'submit' }, 'Send')));
  const send = () => {
    const text = input.value;
    if (text.trim().length === 0) return;
    input.value = '';
    onSend(text);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send();
    }
    if (event.key === 'Escape') onCancel();
  });
  return { form, cancel, input };
}

/** The session view: its items (virtualised), the live answer and tools, questions, plan, status and prompt. */
export const sessionPage: Page = (root, context, route) => {
  const sessionId = (route as Extract<Route, { page: 'session' }>).sessionId;
  const client = context.client;
  let state: SessionState = emptySession(sessionId);
  let shown: Partial<SessionState> = {};
  let frame = 0;
  let loadingEarlier = false;
  const title = h('h1', { class: 'session-title' }, sessionId);
  const status = h('div', { class: 'status-line', role: 'status' });
  const notices = h('div', { class: 'notices', 'aria-live': 'polite' });
  const plan = h('aside', { class: 'plan-panel', 'aria-label': 'Plan' });
  const stream = h('div', { class: 'item assistant streaming', 'aria-live': 'off' });
  const tools = h('div', { class: 'live-tools' });
  const questions = h('div', { class: 'questions', 'aria-live': 'assertive' });
  const fork = (seq: number) =>
    client.fork(sessionId, seq).then(
      (forked) => context.navigate({ page: 'session', sessionId: forked.sessionId }),
      (error: unknown) => replace(notices, errorView(error)),
    );
  const list = new VirtualList<Item>({
    label: 'Session events',
    key: (item) => item.key,
    render: (item) => itemView(item, (seq) => void fork(seq)),
    estimate: (item) => (item.kind === 'tool' ? 90 : item.kind === 'notice' ? 32 : 80),
    onNearTop: () => void loadEarlier(),
    footer: h('div', { class: 'live' }, stream, tools, questions),
  });
  const prompt = promptForm(
    (text) => {
      dispatch({ type: 'sent' });
      replace(notices);
      client.prompt(sessionId, text).catch((error: unknown) => replace(notices, errorView(error)));
    },
    () => {
      if (state.turn === 'idle') return;
      dispatch({ type: 'cancelling' });
      client.cancel(sessionId).catch((error: unknown) => replace(notices, errorView(error)));
    },
  );
  const answer = (callId: string, optionId: string) =>
    client.answerConfirmation(sessionId, callId, optionId).then(
      ({ accepted }) => !accepted && replace(notices, h('p', { class: 'dim' }, 'Another client answered that question first.')),
      (error: unknown) => replace(notices, errorView(error)),
    );

  const render = () => {
    frame = 0;
    if (shown.title !== state.title) title.textContent = state.title ?? sessionId;
    status.textContent = statusText(state);
    if (shown.items !== state.items) list.set(state.items);
    if (shown.stream !== state.stream) replace(stream, state.stream.text || state.stream.thought ? answerView(state.stream.text, state.stream.thought ? [state.stream.thought] : []) : undefined);
    if (shown.tools !== state.tools) replace(tools, ...state.tools.map(liveToolView));
    if (shown.questions !== state.questions) replace(questions, ...state.questions.map((q) => questionView(q, (optionId) => void answer(q.callId, optionId))));
    if (shown.plan !== state.plan) replace(plan, ...(state.plan ? [h('h2', {}, 'Plan'), h('ol', {}, ...state.plan.map((e) => h('li', { class: `plan-${e.status}` }, e.content)))] : []));
    prompt.cancel.disabled = state.turn === 'idle';
    shown = state;
    list.refresh();
  };
  // Drawn once the tail's replay is in (one first frame, not one per replayed event), then as events come.
  let live = false;
  const dispatch = (action: SessionAction) => {
    state = reduceSession(state, action);
    if (live && frame === 0) frame = requestAnimationFrame(render);
  };
  const loadEarlier = async () => {
    if (loadingEarlier || state.firstSeq === undefined || state.firstSeq <= 1) return;
    loadingEarlier = true;
    try {
      const page = await client.console.logEvents({ sessionId, beforeSeq: state.firstSeq, limit: PAGE });
      dispatch({ type: 'earlier', events: page.events });
    } catch (error) {
      replace(notices, errorView(error));
    } finally {
      loadingEarlier = false;
    }
  };

  const links = h('p', { class: 'crumbs' }, h('a', { href: routeHash({ page: 'sessions' }) }, 'Sessions'), ' · ', h('a', { href: routeHash({ page: 'log', sessionId }) }, 'Log'));
  replace(root, h('div', { class: 'session' }, links, title, status, plan, notices, list.element, prompt.form));
  const stop = client.onEvent((event) => dispatch({ type: 'client', event }));
  let attached = false;
  open(context, sessionId, (event) => dispatch({ type: 'client', event: { type: 'log', sessionId, event } }))
    .then(
      () => {
        attached = true;
        live = true;
        render();
        performance.mark('nodwyn:session-attached');
        prompt.input.focus();
      },
      (error: unknown) => {
        live = true;
        render();
        replace(notices, errorView(error));
      },
    );
  render();
  return () => {
    stop();
    if (frame !== 0) cancelAnimationFrame(frame);
    if (attached) void client.detach(sessionId).catch(() => undefined);
  };
};
