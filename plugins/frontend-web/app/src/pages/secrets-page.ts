import type { SecretInfo } from '@nodwyn/protocol';
import type { Page } from '../app-context.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';

function secretsTable(secrets: readonly SecretInfo[]): HTMLElement {
  if (secrets.length === 0) return h('p', { class: 'empty' }, 'No secrets yet.');
  return h(
    'table',
    { class: 'secrets' },
    h('thead', {}, h('tr', {}, ...['Name', 'Class', 'Created', 'Last use'].map((label) => h('th', { scope: 'col' }, label)))),
    h('tbody', {}, ...secrets.map((s) => h('tr', {}, h('td', {}, h('code', {}, s.name)), h('td', {}, s.class), h('td', {}, s.created), h('td', {}, s.lastUsed ?? 'never')))),
  );
}

/**
 * Secrets: names, classes and dates, never a value. The add form's value goes in one request to the
 * keychain (docs/architecture.md §6) and is cleared from the page at once; it is never shown back.
 */
export const secretsPage: Page = (root, context) => {
  const api = context.client.console;
  const list = h('div', {});
  const notices = h('div', { class: 'notices', 'aria-live': 'polite' });
  const name = h('input', { id: 'secret-name', name: 'name', required: true, autocomplete: 'off', spellcheck: 'false', pattern: '[A-Za-z0-9_.\\-]+' });
  const cls = h('input', { id: 'secret-class', name: 'class', required: true, autocomplete: 'off', spellcheck: 'false', placeholder: 'control-plane' });
  const value = h('input', { id: 'secret-value', name: 'value', type: 'password', required: true, autocomplete: 'new-password', spellcheck: 'false' });
  const force = h('input', { id: 'secret-force', name: 'force', type: 'checkbox' });
  const form = h(
    'form',
    { class: 'stack', 'aria-label': 'Add a secret' },
    h('h2', {}, 'Add a secret'),
    h('label', { for: 'secret-name' }, 'Name'),
    name,
    h('label', { for: 'secret-class' }, 'Class'),
    cls,
    h('label', { for: 'secret-value' }, 'Value'),
    value,
    h('label', { class: 'inline' }, force, ' Replace a secret of this name'),
    h('button', { type: 'submit' }, 'Add secret'),
  );
  const load = () => api.listSecrets().then((secrets) => replace(list, secretsTable(secrets)), (error: unknown) => replace(list, errorView(error)));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const secret = { name: name.value.trim(), class: cls.value.trim(), value: value.value, ...(force.checked ? { force: true } : {}) };
    value.value = '';
    replace(notices);
    api.addSecret(secret).then(
      (added) => {
        replace(notices, h('p', {}, `Stored ${added.name} (${added.class}) in the keychain.`));
        name.value = '';
        force.checked = false;
        void load();
      },
      (error: unknown) => replace(notices, errorView(error)),
    );
  });
  replace(root, h('h1', {}, 'Secrets'), list, notices, form);
  void load();
  return () => {
    value.value = '';
  };
};
