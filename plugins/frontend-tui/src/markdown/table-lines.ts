import type { Tokens } from 'marked';
import type { Line, Span, Style } from '../terminal/paint.js';
import { textWidth } from '../terminal/text-width.js';
import { lineText, wrapSpans } from '../terminal/wrap.js';
import { inlineSpans } from './inline-spans.js';

const SEPARATOR = ' │ ';
const MIN_COLUMN = 3;
const RULE: Style = { fg: 'gray' };

/** Widths that fit `available` columns: narrow columns keep their width, wide ones share what is left. */
function columnWidths(natural: readonly number[], available: number): number[] {
  if (natural.reduce((a, b) => a + b, 0) <= available) return [...natural];
  const widths = natural.map(() => 0);
  const order = natural.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w);
  let left = available;
  order.forEach(({ w, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    widths[i] = Math.max(MIN_COLUMN, Math.min(w, share));
    left -= widths[i]!;
  });
  return widths;
}

function pad(line: Line, width: number, align: Tokens.TableCell['align']): Span[] {
  const room = Math.max(0, width - textWidth(lineText(line)));
  const before = align === 'right' ? room : align === 'center' ? Math.floor(room / 2) : 0;
  const spans: Span[] = [];
  if (before > 0) spans.push({ text: ' '.repeat(before) });
  spans.push(...line);
  if (room - before > 0) spans.push({ text: ' '.repeat(room - before) });
  return spans;
}

function rowLines(cells: readonly Line[][], widths: readonly number[], aligns: Tokens.Table['align']): Line[] {
  const height = Math.max(1, ...cells.map((c) => c.length));
  const lines: Line[] = [];
  for (let row = 0; row < height; row++) {
    const line: Span[] = [];
    cells.forEach((cell, col) => {
      if (col > 0) line.push({ text: SEPARATOR, style: RULE });
      line.push(...pad(cell[row] ?? [], widths[col]!, aligns[col] ?? null));
    });
    lines.push(line);
  }
  return lines;
}

/**
 * A Markdown table laid out in `width` columns: cells wrap inside their column, the header is bold and
 * ruled off. A table with more columns than fit at all is shown as one `header: value` list per row.
 */
export function tableLines(table: Tokens.Table, width: number): Line[] {
  const header = table.header.map((cell) => inlineSpans(cell.tokens, { bold: true }));
  const rows = table.rows.map((row) => row.map((cell) => inlineSpans(cell.tokens)));
  const columns = header.length;
  const available = width - SEPARATOR.length * (columns - 1);
  if (columns === 0) return [];
  if (available < columns * MIN_COLUMN) return stacked(header, rows, width);
  const natural = header.map((_, col) =>
    Math.max(1, ...[header[col]!, ...rows.map((r) => r[col] ?? [])].map((spans) => textWidth(spans.map((s) => s.text).join('')))),
  );
  const widths = columnWidths(natural, available);
  const wrapCells = (cells: Span[][]): Line[][] => header.map((_, col) => wrapSpans(cells[col] ?? [], widths[col]!));
  const lines = rowLines(wrapCells(header), widths, table.align);
  lines.push([{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: RULE }]);
  for (const row of rows) lines.push(...rowLines(wrapCells(row), widths, table.align));
  return lines;
}

function stacked(header: readonly Span[][], rows: readonly Span[][][], width: number): Line[] {
  const lines: Line[] = [];
  rows.forEach((row, r) => {
    if (r > 0) lines.push([{ text: '─'.repeat(Math.min(width, 8)), style: RULE }]);
    header.forEach((name, col) => lines.push(...wrapSpans([...name, { text: ': ' }, ...(row[col] ?? [])], width, { rest: [{ text: '  ' }] })));
  });
  return lines;
}
