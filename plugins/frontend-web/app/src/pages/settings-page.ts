import type { Page } from '../app-context.js';
import { h, replace } from '../dom.js';
import { errorView } from '../error-view.js';
import { changedSections, formValue, settingsFromForm, type RawValue, type SettingField } from './settings-form.js';

function control(id: string, field: SettingField, value: unknown): HTMLInputElement | HTMLSelectElement {
  const shown = formValue(field, value);
  if (field.type === 'boolean') return h('input', { id, type: 'checkbox', checked: shown === true });
  if (field.type === 'enum') {
    // A value the field does not offer (a provider left out of the list) stays: saving must not drop it.
    const options = shown !== '' && !(field.options ?? []).includes(String(shown)) ? [...(field.options ?? []), String(shown)] : (field.options ?? []);
    return h('select', { id }, h('option', { value: '' }, '(unset)'), ...options.map((option) => h('option', { value: option, selected: option === shown }, option)));
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  return h('input', { id, type: numeric ? 'number' : 'text', value: String(shown), step: field.type === 'integer' ? '1' : numeric ? 'any' : undefined, min: field.min, max: field.max, autocomplete: 'off', spellcheck: 'false' });
}

/**
 * Settings: a form made from the settable sections of the person's config.toml, validated by the daemon
 * before it is saved; saving restarts the daemon's plugins (in the desktop app, the daemon itself, which
 * restores the previous file if the new daemon fails to start).
 */
export const settingsPage: Page = (root, context) => {
  const api = context.client.console;
  const notices = h('div', { class: 'notices', 'aria-live': 'polite' });
  const body = h('div', {}, h('p', { class: 'empty' }, 'Loading settings…'));
  replace(root, h('h1', {}, 'Settings'), body, notices);
  void api.settings().then(
    ({ file, settings, fields }) => {
      const controls = new Map<string, HTMLInputElement | HTMLSelectElement>();
      const sections = Object.entries(fields).map(([section, keys]) =>
        h(
          'fieldset',
          {},
          h('legend', {}, `[${section}]`),
          ...Object.entries(keys).map(([key, field]) => {
            const id = `setting-${section}-${key}`.replace(/[^A-Za-z0-9_-]/g, '-');
            const input = control(id, field, settings[section]?.[key]);
            controls.set(`${section}\u0000${key}`, input);
            return h('div', { class: 'field' }, h('label', { for: id }, key), input, h('small', {}, field.description));
          }),
        ),
      );
      const read = () =>
        settingsFromForm(fields, (section, key): RawValue | undefined => {
          const input = controls.get(`${section}\u0000${key}`);
          if (!input) return undefined;
          return input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value;
        });
      const save = async () => {
        const settingsNow = changedSections(settings, read());
        if (Object.keys(settingsNow).length === 0) return replace(notices, h('p', {}, 'Nothing changed.'));
        replace(notices, h('p', {}, 'Validating…'));
        const check = await api.validateSettings(settingsNow);
        if (!check.ok) return replace(notices, errorView({ envelope: check.envelope ?? { status: 'error', remediation: 'The daemon refused these settings.' } }));
        if (context.desktop) {
          const outcome = await context.desktop.saveSettings(settingsNow);
          return replace(notices, outcome.ok ? h('p', {}, 'Saved; the daemon restarted with them.') : errorView(`${outcome.error}${outcome.restored ? ' (the previous settings were restored)' : ''}`));
        }
        const saved = await api.saveSettings(settingsNow);
        replace(notices, h('p', {}, `Saved to ${saved.file}; ${saved.restarted} workspace${saved.restarted === 1 ? '' : 's'} restarted.`));
      };
      const form = h('form', { class: 'settings', 'aria-label': 'Settings' }, h('p', { class: 'dim' }, `File: ${file}`), ...sections, h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Validate and save')));
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        save().catch((error: unknown) => replace(notices, errorView(error)));
      });
      replace(body, form);
    },
    (error: unknown) => replace(body, errorView(error)),
  );
  return () => undefined;
};
