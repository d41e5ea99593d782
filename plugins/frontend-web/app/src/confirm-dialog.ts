import { h } from './dom.js';

/**
 * Asks the person to confirm an action in a modal dialog (Enter on the focused button confirms, Escape
 * cancels); resolves true only on an explicit confirm.
 */
export function confirmAction(question: string, detail: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
    const confirm = h('button', { type: 'button', class: 'danger' }, confirmLabel);
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' }, h('h2', { id: 'confirm-title' }, question), h('p', {}, detail), h('div', { class: 'actions' }, cancel, confirm));
    const done = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    cancel.addEventListener('click', () => done(false));
    confirm.addEventListener('click', () => done(true));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      done(false);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
