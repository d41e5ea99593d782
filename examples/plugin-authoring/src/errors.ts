import { fail, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

export const PLUGIN = '@acme/nodwyn-plugin-notes';

/** Every code this plugin raises, and its category. */
export const NotesCode = {
  NOTES_CONFIG_INVALID: 'VALIDATION_FAILED',
  NOTE_NOT_FOUND: 'NOT_FOUND',
  NOTE_TOO_LARGE: 'LIMIT_EXCEEDED',
  NOTE_WRITE_FAILED: 'PRECONDITION_FAILED',
} as const satisfies Record<string, Category>;

/** What a failure states; the category and plugin follow from the code. */
export type NotesErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

/** Throws the envelope error for `code`. */
export function notesFail(code: keyof typeof NotesCode, init: NotesErrorInit): never {
  return fail({ ...init, code, category: NotesCode[code], plugin: PLUGIN });
}
