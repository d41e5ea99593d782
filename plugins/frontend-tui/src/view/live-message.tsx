/** @jsxRuntime automatic */
import { memo, useMemo } from 'react';
import { thinkingLines } from '../layout/item-lines.js';
import { renderMarkdown } from '../markdown/render-markdown.js';
import { stablePrefixLength } from '../markdown/stable-prefix.js';
import type { Line } from '../terminal/paint.js';
import { LinesRows } from './lines-text.js';

interface LiveMessageProps {
  readonly text: string;
  readonly thought: string;
  readonly width: number;
  readonly showThinking: boolean;
  /** At most this many lines are drawn: the newest ones (the whole message goes to the scrollback once logged). */
  readonly maxLines: number;
}

/**
 * The answer streaming now, as Markdown. The finished blocks before the last blank line are laid out
 * once; each delta lays out only the tail. Only the last `maxLines` lines are drawn, so the live region
 * stays shorter than the terminal and ink never has to redraw the scrollback.
 */
export const LiveMessage = memo(function LiveMessage({ text, thought, width, showThinking, maxLines }: LiveMessageProps) {
  const stableEnd = stablePrefixLength(text);
  const stable = text.slice(0, stableEnd);
  const head = useMemo(() => renderMarkdown(stable, width), [stable, width]);
  const tail = useMemo(() => renderMarkdown(text.slice(stableEnd), width), [text, stableEnd, width]);
  const thinking = useMemo(() => thinkingLines(thought ? [thought] : [], width, showThinking), [thought, width, showThinking]);
  const all: Line[] = [...thinking, ...head, ...(head.length > 0 && tail.length > 0 ? [[]] : []), ...tail];
  if (all.length <= maxLines) return <LinesRows lines={all} />;
  const kept = all.slice(all.length - Math.max(1, maxLines - 1));
  const note: Line = [{ text: `↑ ${all.length - kept.length} more lines, in the scrollback once the message is logged`, style: { dim: true } }];
  return <LinesRows lines={[note, ...kept]} />;
});
