import type { LogEvent } from '@nodwyn/protocol';
import type { Page } from '../app-context.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';
import { routeHash, type Route } from '../route.js';
import { VirtualList } from '../virtual-list.js';
import { eventLine, mergeEvents, verdictText } from './log-rows.js';

const PAGE = 200;

function eventRow(event: LogEvent, onToggle: () => void): HTMLElement {
  const line = eventLine(event);
  const payload = h('details', { class: 'payload' }, h('summary', {}, 'payload'), h('pre', {}, JSON.stringify(event.payload, undefined, 2)));
  payload.addEventListener('toggle', onToggle);
  return h(
    'div',
    { class: 'log-row', 'data-seq': event.seq },
    h('span', { class: 'seq' }, line.seq),
    h('code', { class: 'type' }, line.type),
    h('span', { class: 'actor' }, line.actor),
    h('time', { datetime: line.ts, title: line.ts }, line.ts.slice(11, 23) || line.ts),
    h('code', { class: 'chain', title: `prev ${event.prev}\nhash ${event.hash}` }, line.chain),
    payload,
  );
}

/** The log view: every event of a session (virtualised, paged from the log), its hash chain, and `verify`. */
export const logPage: Page = (root, context, route) => {
  const sessionId = (route as Extract<Route, { page: 'log' }>).sessionId;
  const api = context.client.console;
  let events: LogEvent[] = [];
  let loading = false;
  let stopped = false;
  const notices = h('div', { class: 'notices', 'aria-live': 'polite' });
  const verdict = h('p', { class: 'verdict', role: 'status' });
  const list: VirtualList<LogEvent> = new VirtualList<LogEvent>({
    label: 'Log events',
    key: (event) => String(event.seq),
    render: (event) => eventRow(event, () => list.refresh()),
    estimate: () => 34,
    onNearTop: () => void earlier(),
  });
  const show = (page: readonly LogEvent[]) => {
    events = mergeEvents(page, events);
    list.set(events);
  };
  const earlier = async () => {
    const first = events[0]?.seq;
    if (loading || stopped || first === undefined || first <= 1) return;
    loading = true;
    try {
      show((await api.logEvents({ sessionId, beforeSeq: first, limit: PAGE })).events);
    } catch (error) {
      replace(notices, errorView(error));
    } finally {
      loading = false;
    }
  };
  const verify = h('button', { type: 'button' }, 'Verify');
  verify.addEventListener('click', () => {
    verdict.className = 'verdict';
    verdict.textContent = 'Verifying…';
    api.verifyLog(sessionId).then(
      (result) => {
        verdict.className = `verdict ${result.ok ? 'ok' : 'bad'}`;
        verdict.textContent = verdictText(result);
      },
      (error: unknown) => replace(verdict, errorView(error)),
    );
  });
  replace(
    root,
    h('p', { class: 'crumbs' }, h('a', { href: routeHash({ page: 'sessions' }) }, 'Sessions'), ' · ', h('a', { href: routeHash({ page: 'session', sessionId }) }, 'Session')),
    h('h1', {}, 'Log ', h('code', {}, sessionId)),
    h('div', { class: 'toolbar' }, verify, verdict),
    notices,
    h('div', { class: 'log-head', 'aria-hidden': 'true' }, ...['seq', 'type', 'actor', 'time', 'prev → hash', ''].map((label) => h('span', {}, label))),
    list.element,
  );
  void (async () => {
    try {
      const { head } = await api.logEvents({ sessionId, limit: 1 });
      if (!stopped) show((await api.logEvents({ sessionId, beforeSeq: head + 1, limit: PAGE })).events);
    } catch (error) {
      replace(notices, errorView(error));
    }
  })();
  return () => {
    stopped = true;
  };
};
