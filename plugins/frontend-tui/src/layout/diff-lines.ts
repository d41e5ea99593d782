import { structuredPatch } from 'diff';
import type { Line, Style } from '../terminal/paint.js';
import { sanitize } from '../terminal/sanitize.js';
import { wrapHard } from '../terminal/wrap.js';
import type { ToolOutcome } from '../state/finished-item.js';

const ADDED: Style = { fg: 'green' };
const REMOVED: Style = { fg: 'red' };
const CONTEXT: Style = { dim: true };

/** The changed lines of an edit with 2 lines of context, `+` green and `-` red; a new file is all `+`. */
function changes(diff: NonNullable<ToolOutcome['diff']>): { sign: string; text: string }[] {
  if (diff.oldText === undefined) return sanitize(diff.newText).replace(/\n$/, '').split('\n').map((text) => ({ sign: '+', text }));
  const patch = structuredPatch(diff.path, diff.path, sanitize(diff.oldText), sanitize(diff.newText), undefined, undefined, { context: 2 });
  const rows: { sign: string; text: string }[] = [];
  patch.hunks.forEach((hunk, i) => {
    if (i > 0) rows.push({ sign: '⋯', text: '' });
    for (const line of hunk.lines) if (!line.startsWith('\\')) rows.push({ sign: line[0] ?? ' ', text: line.slice(1) });
  });
  return rows;
}

/**
 * An edit as a coloured diff in `width` columns, at most `max` rows (then how many more there are).
 * Signs are kept under NO_COLOR, so a change still reads without colour.
 */
export function diffLines(diff: NonNullable<ToolOutcome['diff']>, width: number, max: number): Line[] {
  const rows = changes(diff);
  const lines: Line[] = [];
  for (const row of rows.slice(0, max)) {
    const style = row.sign === '+' ? ADDED : row.sign === '-' ? REMOVED : CONTEXT;
    const parts = wrapHard([{ text: row.text, style }], Math.max(1, width - 2));
    parts.forEach((part, i) => lines.push([{ text: i === 0 ? `${row.sign} ` : '  ', style }, ...part]));
  }
  if (rows.length > max) lines.push([{ text: `… ${rows.length - max} more lines`, style: { dim: true } }]);
  if (rows.length === 0) lines.push([{ text: 'no change', style: { dim: true } }]);
  return lines;
}
