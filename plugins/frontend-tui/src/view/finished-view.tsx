/** @jsxRuntime automatic */
import { memo } from 'react';
import { itemLines } from '../layout/item-lines.js';
import type { FinishedItem } from '../state/finished-item.js';
import type { Line } from '../terminal/paint.js';
import { describeError } from '../session/describe-error.js';
import { LinesBlock } from './lines-text.js';

/** Lays out an item, or one line saying it could not be (a render never throws into the terminal). */
function safeLines(item: FinishedItem, width: number, showThinking: boolean): Line[] {
  try {
    return itemLines(item, width, showThinking);
  } catch (error) {
    return [[{ text: `✗ This ${item.kind} could not be shown: ${describeError(error)}`, style: { fg: 'red' } }]];
  }
}

/** One finished item, drawn once into the scrollback at the width the terminal has then. */
export const FinishedView = memo(function FinishedView({ item, width, showThinking }: { readonly item: FinishedItem; readonly width: number; readonly showThinking: boolean }) {
  return <LinesBlock lines={safeLines(item, width, showThinking)} />;
});
