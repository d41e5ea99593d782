import { memoryFail } from './errors.js';

/**
 * The tokenizer every index uses. `remove_diacritics 0` keeps FTS5's words and `wordsOf` (which finds the
 * matching lines in JavaScript) the same: letters and digits, case folded, everything else a separator.
 */
export const TOKENIZER = "unicode61 remove_diacritics 0";

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
// FTS5's own syntax: quotes, grouping, prefix and initial-token marks, and the operators.
// A colon is left out on purpose: `http://x` is a plain word to a person, a column filter to FTS5.
const SYNTAX = /["()*^]|\b(AND|OR|NOT|NEAR)\b/;
const OPERATORS = new Set(['and', 'or', 'not', 'near']);

/** One thing a query looks for: consecutive words, the last one a prefix when it ended in `*`. */
export interface Term {
  readonly words: readonly string[];
  readonly prefix: boolean;
}

/** A query as the index runs it, and the terms that pick matching lines out of a matching file. */
export interface FtsQuery {
  /** The FTS5 MATCH expression. */
  readonly match: string;
  readonly terms: readonly Term[];
  /** The query as the caller wrote it, for messages. */
  readonly text: string;
}

/** The words of `text`, lower case, as the index's tokenizer splits them. */
export function wordsOf(text: string): string[] {
  return (text.match(WORD) ?? []).map((word) => word.toLowerCase());
}

/**
 * Turns a caller's query into an FTS5 expression. Plain words just work: each is quoted, so `foo.bar`,
 * `-x` or `don't` never reach FTS5 as syntax, and a file or event must hold every word. A query that
 * uses FTS5's own syntax (`"exact phrase"`, `a OR b`, `pars*`, `NEAR(…)`) is passed through, and SQLite's
 * verdict on it is turned into an envelope by the caller (`queryError`).
 */
export function toFtsQuery(text: string, parameter = '$.query'): FtsQuery {
  if (SYNTAX.test(text)) return { match: text, terms: termsOfSyntax(text), text };
  const terms = text
    .split(/\s+/)
    .map((word) => wordsOf(word))
    .filter((words) => words.length > 0)
    .map((words) => ({ words, prefix: false }));
  if (terms.length === 0) {
    return memoryFail('MEMORY_QUERY_INVALID', {
      operation: 'search',
      failed_parameter: parameter,
      received_value: text,
      expected: 'at least one word of letters or digits',
      remediation: `The query ${JSON.stringify(text)} holds no word to look for; search for words that appear in the text, e.g. "parseConfig timeout".`,
    });
  }
  return { match: terms.map((term) => `"${term.words.join(' ')}"`).join(' '), terms, text };
}

// The words a query in FTS5 syntax names, for picking lines; operators and column names are not words.
function termsOfSyntax(text: string): Term[] {
  const terms: Term[] = [];
  for (const phrase of text.matchAll(/"((?:[^"]|"")*)"(\*?)|([\p{L}\p{N}\p{Co}]+)(\*?)(:?)/gu)) {
    if (phrase[1] !== undefined) {
      const words = wordsOf(phrase[1]);
      if (words.length > 0) terms.push({ words, prefix: phrase[2] === '*' });
      continue;
    }
    const word = phrase[3]!;
    if (phrase[5] === ':' || (OPERATORS.has(word.toLowerCase()) && word === word.toUpperCase())) continue;
    terms.push({ words: [word.toLowerCase()], prefix: phrase[4] === '*' });
  }
  return terms;
}

/** How many of `terms` the line holds (0: the line does not match). */
export function termsIn(line: string, terms: readonly Term[]): number {
  const lower = line.toLowerCase();
  // A cheap test first: most lines of a matching file hold none of the words.
  if (!terms.some((term) => lower.includes(term.words[0]!))) return 0;
  const words = wordsOf(line);
  let found = 0;
  for (const term of terms) if (holds(words, term)) found++;
  return found;
}

function holds(words: readonly string[], term: Term): boolean {
  const last = term.words.length - 1;
  for (let start = 0; start + last < words.length; start++) {
    let i = 0;
    while (i < last && words[start + i] === term.words[i]) i++;
    if (i === last && (term.prefix ? words[start + i]!.startsWith(term.words[i]!) : words[start + i] === term.words[i])) return true;
  }
  return false;
}

/** True when `error` is SQLite refusing an FTS5 expression (rather than a broken index). */
export function isQuerySyntaxError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_ERROR' && /fts5|syntax error|no such column|unterminated|unknown special query/i.test(error.message);
}

/** The envelope error for a query SQLite refused, naming the query rather than SQLite's message. */
export function queryError(query: FtsQuery, parameter = '$.query'): never {
  return memoryFail('MEMORY_QUERY_INVALID', {
    operation: 'search',
    failed_parameter: parameter,
    received_value: query.text,
    expected: 'plain words, or FTS5 syntax: "exact phrase", a OR b, a NOT b, pref*, NEAR(a b, 5)',
    remediation: `The query ${JSON.stringify(query.text)} is not valid search syntax (an unbalanced quote or parenthesis, or an operator with nothing beside it). Search for plain words, or quote a phrase with "…".`,
  });
}
