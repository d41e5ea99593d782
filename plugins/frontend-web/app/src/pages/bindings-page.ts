import type { Binding } from '@nodwyn/protocol';
import type { Page } from '../app-context.js';
import { confirmAction } from '../confirm-dialog.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';

/** A comma- or space-separated list as its items (`header:authorization, query:key`). */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** The egress bindings: which secret class may go where, in which positions, with which methods; add and remove. */
export const bindingsPage: Page = (root, context) => {
  const api = context.client.console;
  const list = h('div', {});
  const notices = h('div', { class: 'notices', 'aria-live': 'polite' });
  const show = (bindings: readonly Binding[]) =>
    replace(
      list,
      bindings.length === 0
        ? h('p', { class: 'empty' }, 'No bindings: no secret may leave yet.')
        : h(
            'table',
            { class: 'bindings' },
            h('thead', {}, h('tr', {}, ...['Class', 'Host', 'Path', 'Positions', 'Methods', ''].map((label) => h('th', { scope: 'col' }, label)))),
            h('tbody', {}, ...bindings.map((b) => h('tr', {}, h('td', {}, b.class), h('td', {}, b.host), h('td', {}, b.path ?? '/'), h('td', {}, b.position.join(', ')), h('td', {}, b.method.join(', ')), h('td', {}, h('button', { type: 'button', class: 'danger', onClick: () => void remove(b) }, 'Remove'))))),
          ),
    );
  const remove = async (b: Binding) => {
    if (!(await confirmAction(`Remove the binding of ${b.class} to ${b.host}${b.path ?? ''}?`, 'Secrets of this class will no longer be sent there.', 'Remove'))) return;
    api.removeBinding({ class: b.class, host: b.host, ...(b.path !== undefined ? { path: b.path } : {}) }).then(show, (error: unknown) => replace(notices, errorView(error)));
  };
  const field = (id: string, label: string, placeholder: string, required = true) => {
    const input = h('input', { id, name: id, required, placeholder, autocomplete: 'off', spellcheck: 'false' });
    return { input, nodes: [h('label', { for: id }, label), input] };
  };
  const cls = field('binding-class', 'Class', 'control-plane');
  const host = field('binding-host', 'Host', 'api.example.com');
  const path = field('binding-path', 'Path prefix (optional)', '/v1', false);
  const positions = field('binding-positions', 'Positions', 'header:authorization');
  const methods = field('binding-methods', 'Methods', 'GET, POST');
  const form = h('form', { class: 'stack', 'aria-label': 'Add a binding' }, h('h2', {}, 'Add a binding'), ...cls.nodes, ...host.nodes, ...path.nodes, ...positions.nodes, ...methods.nodes, h('button', { type: 'submit' }, 'Add binding'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    replace(notices);
    const prefix = path.input.value.trim();
    api
      .addBinding({ class: cls.input.value.trim(), host: host.input.value.trim(), ...(prefix ? { path: prefix } : {}), position: splitList(positions.input.value), method: splitList(methods.input.value).map((m) => m.toUpperCase()) })
      .then((bindings) => {
        show(bindings);
        form.reset();
      }, (error: unknown) => replace(notices, errorView(error)));
  });
  replace(root, h('h1', {}, 'Bindings'), list, notices, form);
  api.listBindings().then(show, (error: unknown) => replace(list, errorView(error)));
  return () => undefined;
};
