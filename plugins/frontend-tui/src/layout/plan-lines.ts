import type { PlanVerdict } from '../state/finished-item.js';
import type { Line, Span, Style } from '../terminal/paint.js';
import { truncate } from '../terminal/text-width.js';
import { wrapSpans } from '../terminal/wrap.js';

/** What a verdict says in one line: `approved by judge · score 0.82 · round 2`. */
export function verdictText(verdict: PlanVerdict): string {
  const parts = [verdict.approved ? 'approved' : 'to revise'];
  if (verdict.by) parts[0] += ` by ${verdict.by}`;
  if (verdict.score !== undefined) parts.push(`score ${verdict.score}`);
  if (verdict.round !== undefined) parts.push(`round ${verdict.round}`);
  return parts.join(' · ');
}

/** A plan as a panel: a bar in the verdict's colour, the verdict, the numbered steps and the feedback. */
export function planLines(entries: readonly string[], verdict: PlanVerdict, width: number): Line[] {
  const color: Style = { fg: verdict.approved ? 'green' : 'yellow' };
  const bar: Span = { text: '┃ ', style: color };
  const inner = Math.max(1, width - 2);
  const lines: Line[] = [[bar, { text: 'Plan', style: { ...color, bold: true } }, { text: truncate(` · ${verdictText(verdict)}`, inner - 4), style: { dim: true } }]];
  const number = String(entries.length).length;
  entries.forEach((entry, i) => {
    const marker = `${String(i + 1).padStart(number)}. `;
    for (const line of wrapSpans([{ text: entry }], inner, { first: [{ text: marker, style: { dim: true } }], rest: [{ text: ' '.repeat(marker.length) }] })) lines.push([bar, ...line]);
  });
  if (verdict.feedback) for (const line of wrapSpans([{ text: verdict.feedback, style: { italic: true } }], inner)) lines.push([bar, ...line]);
  return lines;
}
