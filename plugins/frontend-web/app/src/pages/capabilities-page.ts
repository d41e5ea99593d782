import type { Page } from '../app-context.js';
import { confirmAction } from '../confirm-dialog.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';
import type { Route } from '../route.js';

type Capability = { readonly name: string } & Record<string, unknown>;

/** A capability's fields besides its name, as text (`version 3 · runner quickjs · state active`). */
export function capabilityFacts(capability: Capability): string {
  return Object.entries(capability)
    .filter(([key, value]) => key !== 'name' && key !== 'code' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'))
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(' · ');
}

/** The capabilities of a workspace: list, each one's history with its code, rollback and disable (each confirmed). */
export const capabilitiesPage: Page = (root, context, route) => {
  const api = context.client.console;
  const chosen = (route as Extract<Route, { page: 'capabilities' }>).workspace;
  const notices = h('div', { class: 'notices', 'aria-live': 'polite' });
  const list = h('div', { class: 'capabilities' });
  const picker = h('select', { id: 'cap-workspace', 'aria-label': 'Workspace' });
  const history = h('section', { class: 'history', 'aria-live': 'polite' });

  const load = async (workspace: string) => {
    replace(history);
    try {
      const capabilities = (await api.listCapabilities(workspace)) as readonly Capability[];
      replace(list, capabilities.length === 0 ? h('p', { class: 'empty' }, 'No capabilities in this workspace.') : h('ul', { class: 'rows' }, ...capabilities.map((c) => row(workspace, c))));
    } catch (error) {
      replace(list, errorView(error));
    }
  };
  const act = async (question: string, detail: string, label: string, action: () => Promise<unknown>, workspace: string) => {
    if (!(await confirmAction(question, detail, label))) return;
    try {
      await action();
      replace(notices, h('p', {}, 'Done.'));
      await load(workspace);
    } catch (error) {
      replace(notices, errorView(error));
    }
  };
  const showHistory = async (workspace: string, name: string) => {
    try {
      const { versions } = await api.capabilityHistory(workspace, name);
      replace(
        history,
        h('h2', {}, `History of ${name}`),
        ...versions.map((v) =>
          h(
            'article',
            { class: 'version' },
            h('h3', {}, `Version ${v.version}${v.current ? ' (current)' : ''}`),
            v.current ? undefined : h('button', { type: 'button', onClick: () => void act(`Roll ${name} back to version ${v.version}?`, 'The model will run this version from its next call.', 'Roll back', () => api.rollbackCapability(workspace, name, v.version), workspace) }, `Roll back to v${v.version}`),
            h('pre', { class: 'code' }, v.code),
          ),
        ),
      );
    } catch (error) {
      replace(history, errorView(error));
    }
  };
  const row = (workspace: string, c: Capability) =>
    h(
      'li',
      {},
      h('strong', {}, c.name),
      h('span', { class: 'dim' }, ` ${capabilityFacts(c)} `),
      h('button', { type: 'button', class: 'secondary', onClick: () => void showHistory(workspace, c.name) }, 'History'),
      h('button', { type: 'button', class: 'danger', onClick: () => void act(`Disable ${c.name}?`, 'The model will no longer see it; a person must enable it again.', 'Disable', () => api.disableCapability(workspace, c.name), workspace) }, 'Disable'),
    );

  replace(root, h('h1', {}, 'Capabilities'), h('div', { class: 'toolbar' }, h('label', { for: 'cap-workspace' }, 'Workspace'), picker), notices, list, history);
  picker.addEventListener('change', () => context.navigate({ page: 'capabilities', workspace: picker.value }));
  void context.client.listSessions().then(
    (sessions) => {
      const workspaces = [...new Set([...(chosen ? [chosen] : []), ...sessions.map((s) => s.workspace)])];
      replace(picker, ...workspaces.map((w) => h('option', { value: w, selected: w === chosen }, w)));
      const workspace = chosen ?? workspaces[0];
      if (workspace) void load(workspace);
      else replace(list, h('p', { class: 'empty' }, 'No workspace yet: start a session first.'));
    },
    (error: unknown) => replace(list, errorView(error)),
  );
  return () => undefined;
};
