/** @jsxRuntime automatic */
import { memo, useEffect, useState } from 'react';
import { liveToolLine } from '../layout/tool-lines.js';
import type { LiveTool } from '../state/tui-state.js';
import type { Line } from '../terminal/paint.js';
import { LinesRows } from './lines-text.js';

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const TICK_MS = 100;

interface LiveToolsProps {
  readonly tools: readonly LiveTool[];
  /** ACP ids of the calls a question waits on. */
  readonly asking: readonly string[];
  readonly width: number;
  readonly max: number;
}

/** The tool calls running now: a spinner and the elapsed time each, at most `max` (the newest). */
export const LiveTools = memo(function LiveTools({ tools, asking, width, max }: LiveToolsProps) {
  const running = tools.length > 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [running]);
  if (!running) return null;
  const frame = FRAMES[Math.floor(now / TICK_MS) % FRAMES.length]!;
  const shown = tools.slice(-max);
  const lines: Line[] = [];
  if (shown.length < tools.length) lines.push([{ text: `… ${tools.length - shown.length} more calls`, style: { dim: true } }]);
  for (const tool of shown) {
    const mark = tool.status === 'completed' ? '✓' : tool.status === 'failed' ? '✗' : frame;
    lines.push(liveToolLine(tool, mark, Math.max(now, tool.startedAt), width, asking.includes(tool.toolCallId)));
  }
  return <LinesRows lines={lines} />;
});
