import type { Line, Span } from '../terminal/paint.js';
import { textWidth, truncate } from '../terminal/text-width.js';
import type { CompletionItem } from './completion.js';

/** A completion menu: at most `max` items around the selected one, the selected one marked. */
export function completionLines(items: readonly CompletionItem[], selected: number, width: number, max: number): Line[] {
  if (items.length === 0) return [];
  const first = Math.min(Math.max(0, selected - max + 1), Math.max(0, items.length - max));
  const labelWidth = Math.min(Math.max(...items.map((i) => textWidth(i.label))), Math.floor(width / 2));
  const lines: Line[] = items.slice(first, first + max).map((item, k) => {
    const chosen = first + k === selected;
    const label = truncate(item.label, labelWidth).padEnd(labelWidth);
    const spans: Span[] = [{ text: chosen ? '❯ ' : '  ', style: { fg: 'magenta' } }, { text: label, style: chosen ? { bold: true, fg: 'magenta' } : {} }];
    if (item.detail) spans.push({ text: `  ${truncate(item.detail, Math.max(0, width - labelWidth - 4))}`, style: { dim: true } });
    return spans;
  });
  if (items.length > max) lines.push([{ text: `  ${items.length - max} more · ↑↓ to move, keep typing to narrow`, style: { dim: true } }]);
  return lines;
}
