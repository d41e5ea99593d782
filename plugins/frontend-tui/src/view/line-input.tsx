/** @jsxRuntime automatic */
import { useRef, useState } from 'react';
import type { Span } from '../terminal/paint.js';
import { truncate } from '../terminal/text-width.js';
import { useKeys } from './key-router.js';
import { LinesRows } from './lines-text.js';

interface LineInputProps {
  readonly label: string;
  readonly initial?: string;
  /** Shows dots instead of the text (an API key). */
  readonly mask?: boolean;
  readonly width: number;
  onSubmit(value: string): void;
  onCancel(): void;
}

/** One line of input for the setup: typed or pasted (newlines dropped), Enter accepts, Esc leaves. */
export function LineInput({ label, initial = '', mask = false, width, onSubmit, onCancel }: LineInputProps) {
  const value = useRef(initial);
  const [, setVersion] = useState(0);
  useKeys((input, key) => {
    if (key.escape) return onCancel();
    if (key.return) return onSubmit(value.current.trim());
    if (key.backspace || key.delete) value.current = value.current.slice(0, -1);
    else if (key.ctrl && input === 'u') value.current = '';
    else if (!key.ctrl && !key.meta && !key.tab && input.length > 0 && !key.upArrow && !key.downArrow) value.current += input.replace(/[\r\n]/g, '');
    setVersion((v) => v + 1);
  });
  const shown = mask ? '•'.repeat(Math.min(value.current.length, 32)) : value.current;
  const spans: Span[] = [{ text: `${label}: `, style: { bold: true } }, { text: truncate(shown, Math.max(1, width - label.length - 4)) }, { text: ' ', style: { inverse: true } }];
  return <LinesRows lines={[spans]} />;
}
