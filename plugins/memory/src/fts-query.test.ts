import { isEnvelopeError } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { termsIn, toFtsQuery, wordsOf } from './fts-query.js';

function envelopeOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isEnvelopeError(error)) return error.envelope;
    throw error;
  }
  throw new Error('expected an envelope');
}

describe('toFtsQuery', () => {
  it('quotes each plain word, so punctuation is never FTS5 syntax', () => {
    expect(toFtsQuery('parseConfig foo.bar -x http://a:1').match).toBe('"parseconfig" "foo bar" "x" "http a 1"');
  });

  it('passes FTS5 syntax through and keeps its words (not its operators) for picking lines', () => {
    const query = toFtsQuery('"load config" OR pars* NOT legacy');
    expect(query.match).toBe('"load config" OR pars* NOT legacy');
    expect(query.terms).toEqual([
      { words: ['load', 'config'], prefix: false },
      { words: ['pars'], prefix: true },
      { words: ['legacy'], prefix: false },
    ]);
  });

  it('refuses a query without a word as VALIDATION_FAILED naming the query', () => {
    expect(envelopeOf(() => toFtsQuery(' -- ... '))).toMatchObject({ category: 'VALIDATION_FAILED', code: 'MEMORY_QUERY_INVALID', received_value: ' -- ... ', failed_parameter: '$.query' });
  });
});

describe('termsIn', () => {
  const terms = toFtsQuery('load config').terms;

  it('counts whole words, case folded, as the index tokenizer splits them', () => {
    expect(termsIn('const x = loadConfig()', terms)).toBe(0);
    expect(termsIn('load_config(LOAD, Config)', terms)).toBe(2);
    expect(termsIn('reload the config', terms)).toBe(1);
  });

  it('matches a phrase only as consecutive words, and a prefix term by its start', () => {
    expect(termsIn('load the config', toFtsQuery('"load config"').terms)).toBe(0);
    expect(termsIn('load config now', toFtsQuery('"load config"').terms)).toBe(1);
    expect(termsIn('parseArgs(argv)', toFtsQuery('parse*').terms)).toBe(1);
  });

  it('splits words as FTS5 unicode61 does: letters and digits of any script', () => {
    expect(wordsOf('Ünïcode_naïve—x2')).toEqual(['ünïcode', 'naïve', 'x2']);
  });
});
