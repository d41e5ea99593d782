import type { Question } from '../state/tui-state.js';
import type { Line, Span } from '../terminal/paint.js';
import { sanitize } from '../terminal/sanitize.js';
import { wrapSpans } from '../terminal/wrap.js';
import { optionKeys } from './option-keys.js';

/** The dialog's lines: what asks, why, where a secret would go, and the keys that answer. */
export function questionLines(question: Question, width: number, more: number): Line[] {
  const tone = question.security ? 'red' : 'yellow';
  const head = question.security ? 'A secret would leave: allow it?' : `Allow ${question.tool}?`;
  const lines: Line[] = [[{ text: head, style: { fg: tone, bold: true } }, ...(more > 0 ? [{ text: `  (+${more} waiting)`, style: { dim: true } }] : [])]];
  if (question.title && question.title !== question.tool) lines.push(...wrapSpans([{ text: sanitize(question.title), style: { bold: true } }], width));
  const why: Span[] = [];
  if (question.tier) why.push({ text: question.tier, style: { fg: tone } });
  if (question.reason) why.push({ text: `${why.length > 0 ? ' · ' : ''}${sanitize(question.reason)}` });
  if (why.length > 0) lines.push(...wrapSpans(why, width));
  for (const effect of question.effects ?? []) lines.push(...wrapSpans([{ text: `• ${sanitize(effect)}` }], width));
  for (const subject of question.subjects ?? []) lines.push(...wrapSpans([{ text: `secret of class ${subject.class} → ${subject.destination}`, style: { fg: 'red' } }], width));
  const keys: Span[] = [];
  for (const { key, option } of optionKeys(question.options)) {
    if (keys.length > 0) keys.push({ text: '   ' });
    keys.push({ text: `[${key}]`, style: { bold: true, fg: option.kind.startsWith('allow') ? 'green' : 'red' } }, { text: ` ${option.name}` });
  }
  lines.push([], ...wrapSpans(keys, width));
  return lines;
}
