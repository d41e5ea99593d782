/** @jsxRuntime automatic */
import { useRef, useState } from 'react';
import type { Line, Span } from '../terminal/paint.js';
import { truncate } from '../terminal/text-width.js';
import { useKeys } from './key-router.js';
import { LinesRows } from './lines-text.js';

/** One choice of a list. */
export interface SelectItem {
  readonly label: string;
  readonly detail?: string;
}

interface SelectListProps {
  readonly items: readonly SelectItem[];
  readonly width: number;
  /** Items shown at once; the list scrolls. */
  readonly rows: number;
  onSelect(index: number): void;
  onCancel(): void;
}

/** The lines of a list with `selected` marked, scrolled so it is in view. */
export function selectLines(items: readonly SelectItem[], selected: number, width: number, rows: number): Line[] {
  const first = Math.min(Math.max(0, selected - rows + 1), Math.max(0, items.length - rows));
  const lines: Line[] = items.slice(first, first + rows).map((item, k) => {
    const chosen = first + k === selected;
    const spans: Span[] = [{ text: chosen ? '❯ ' : '  ', style: { fg: 'magenta' } }, { text: truncate(item.label, width - 2), style: chosen ? { bold: true } : {} }];
    return spans;
  });
  const detail = items[selected]?.detail;
  if (detail) lines.push([{ text: `  ${truncate(detail, width - 2)}`, style: { dim: true } }]);
  if (items.length > rows) lines.push([{ text: `  ${selected + 1}/${items.length}`, style: { dim: true } }]);
  return lines;
}

/**
 * A list to choose from with Up/Down and Enter; Esc leaves it. The choice is kept in a ref, so an Enter
 * that arrives right after an arrow key picks what the arrow chose.
 */
export function SelectList({ items, width, rows, onSelect, onCancel }: SelectListProps) {
  const selected = useRef(0);
  const [, setVersion] = useState(0);
  useKeys((_input, key) => {
    if (key.escape) return onCancel();
    if (key.return && items.length > 0) return onSelect(selected.current);
    const count = Math.max(1, items.length);
    if (key.upArrow) selected.current = (selected.current - 1 + count) % count;
    else if (key.downArrow) selected.current = (selected.current + 1) % count;
    else return;
    setVersion((v) => v + 1);
  });
  return <LinesRows lines={selectLines(items, selected.current, width, rows)} />;
}
