import type { AppContext, Page } from '../app-context.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';
import { routeHash } from '../route.js';
import { formatAgo, formatCost, groupByWorkspace, type SessionRow } from '../sessions-model.js';

function sessionRow(session: SessionRow, now: number): HTMLElement {
  return h(
    'tr',
    { 'data-session': session.sessionId },
    h('td', { class: 'title' }, h('a', { href: routeHash({ page: 'session', sessionId: session.sessionId }) }, session.title ?? session.sessionId)),
    h('td', {}, h('span', { class: `state state-${session.state}` }, session.state)),
    h('td', {}, h('time', { datetime: session.lastActivity, title: session.lastActivity }, formatAgo(session.lastActivity, now))),
    h('td', { class: 'num' }, formatCost(session.cost)),
    h('td', { class: 'num' }, session.events),
    h('td', {}, h('a', { href: routeHash({ page: 'log', sessionId: session.sessionId }), 'aria-label': `Log of ${session.title ?? session.sessionId}` }, 'log')),
  );
}

function sessionTables(sessions: readonly SessionRow[]): HTMLElement {
  const now = Date.now();
  const groups = groupByWorkspace(sessions);
  if (groups.length === 0) return h('p', { class: 'empty' }, 'No sessions yet: start one above.');
  return h(
    'div',
    { class: 'groups' },
    ...groups.map((group) =>
      h(
        'section',
        { class: 'workspace' },
        h('h2', {}, h('span', { class: 'path' }, group.workspace), ' ', h('a', { href: routeHash({ page: 'capabilities', workspace: group.workspace }), class: 'small' }, 'capabilities')),
        h(
          'table',
          { class: 'sessions' },
          h('thead', {}, h('tr', {}, ...['Session', 'State', 'Last activity', 'Cost', 'Events', ''].map((label) => h('th', { scope: 'col', class: label === 'Cost' || label === 'Events' ? 'num' : undefined }, label)))),
          h('tbody', {}, ...group.sessions.map((s) => sessionRow(s, now))),
        ),
      ),
    ),
  );
}

function newSessionForm(context: AppContext, status: HTMLElement): { form: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { id: 'workspace', name: 'workspace', type: 'text', required: true, placeholder: '/path/to/your/project', autocomplete: 'off', spellcheck: 'false' });
  const pick = context.desktop
    ? h('button', { type: 'button', class: 'secondary', onClick: () => void choose() }, 'Choose folder…')
    : undefined;
  const choose = async () => {
    const folder = await context.desktop?.openWorkspace();
    if (folder) input.value = folder;
  };
  const form = h('form', { class: 'new-session', 'aria-label': 'New session' }, h('label', { for: 'workspace' }, 'Workspace'), input, pick, h('button', { type: 'submit' }, 'New session'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const cwd = input.value.trim();
    replace(status);
    context.client.newSession(cwd).then(
      ({ sessionId }) => context.navigate({ page: 'session', sessionId }),
      (error: unknown) => replace(status, errorView(error)),
    );
  });
  return { form, input };
}

/** The sessions page: every session by workspace, its state, last activity and cost; a new session. */
export const sessionsPage: Page = (root, context) => {
  const status = h('div', { class: 'status', 'aria-live': 'polite' });
  const list = h('div', { class: 'session-list', 'aria-busy': 'true' }, h('p', { class: 'empty' }, 'Loading sessions…'));
  const create = newSessionForm(context, status);
  replace(root, h('h1', {}, 'Sessions'), create.form, status, list);
  let stopped = false;
  let shown = '';
  const load = () =>
    context.client.listSessions({ limit: 1000 }).then(
      (rows) => {
        // Redrawn only when something changed, so a refresh never takes the keyboard focus away.
        const json = JSON.stringify(rows);
        if (stopped || json === shown) return;
        shown = json;
        // The workspace of the latest session is the likeliest next one.
        if (!create.input.value && rows[0]) create.input.value = groupByWorkspace(rows)[0]!.workspace;
        list.setAttribute('aria-busy', 'false');
        replace(list, sessionTables(rows));
        performance.mark('nodwyn:sessions-listed');
      },
      (error: unknown) => !stopped && replace(list, errorView(error)),
    );
  void load();
  const timer = setInterval(() => document.visibilityState === 'visible' && void load(), 5000);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
};
