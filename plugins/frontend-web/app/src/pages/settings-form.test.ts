import { describe, expect, it } from 'vitest';
import { changedSections, formValue, settingsFromForm, type SettingField } from './settings-form.js';
import { splitList } from './bindings-page.js';

const fields: Record<string, Record<string, SettingField>> = {
  provider: { default: { type: 'enum', description: '', options: ['a', 'b'] }, max_tokens: { type: 'integer', description: '' } },
  judge: { enabled: { type: 'boolean', description: '' }, threshold: { type: 'number', description: '' } },
};

describe('settingsFromForm', () => {
  it('types the form values by their fields and leaves empty keys unset', () => {
    const raw: Record<string, string | boolean> = { 'provider.default': 'b', 'provider.max_tokens': ' 4096 ', 'judge.enabled': true, 'judge.threshold': '' };
    expect(settingsFromForm(fields, (s, k) => raw[`${s}.${k}`])).toEqual({ provider: { default: 'b', max_tokens: 4096 }, judge: { enabled: true } });
  });

  it('keeps an unreadable number as text, so the daemon names it', () => {
    expect(settingsFromForm(fields, (_s, k) => (k === 'max_tokens' ? 'many' : undefined)).provider).toEqual({ max_tokens: 'many' });
  });

  it('shows values as the form holds them', () => {
    expect(formValue(fields.judge!.enabled!, true)).toBe(true);
    expect(formValue(fields.provider!.max_tokens!, 4096)).toBe('4096');
    expect(formValue(fields.provider!.default!, undefined)).toBe('');
  });
});

describe('splitList', () => {
  it('splits on commas and spaces', () => {
    expect(splitList('header:authorization, query:key  GET')).toEqual(['header:authorization', 'query:key', 'GET']);
  });
});

describe('changedSections', () => {
  it('keeps only the sections whose values changed, whatever their key order', () => {
    const before = { provider: { default: 'scripted', max_tokens: 10 }, judge: { enabled: true } };
    expect(changedSections(before, { provider: { max_tokens: 10, default: 'scripted' }, judge: { enabled: false } })).toEqual({ judge: { enabled: false } });
    expect(changedSections(before, { provider: { default: 'scripted', max_tokens: 10 }, judge: { enabled: true } })).toEqual({});
    expect(changedSections({}, { judge: {} })).toEqual({});
    expect(changedSections({}, { judge: { enabled: false } })).toEqual({ judge: { enabled: false } });
  });
});
