import { h } from './dom.js';
import { shownError } from './shown-error.js';

/** A failure as the console shows it: the envelope's category and code, then what to do, all as text. */
export function errorView(error: unknown): HTMLElement {
  const shown = shownError(error);
  const head = [shown.category, shown.code].filter(Boolean).join(' ');
  return h('div', { class: 'error', role: 'alert' }, head ? h('strong', { class: 'error-code' }, head) : undefined, h('span', { class: 'error-remediation' }, shown.remediation));
}
