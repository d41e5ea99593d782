import type { FinishedItem, ToolEnd } from '../state/finished-item.js';
import type { LiveTool } from '../state/tui-state.js';
import type { Line, Span, Style } from '../terminal/paint.js';
import { sanitize } from '../terminal/sanitize.js';
import { truncate } from '../terminal/text-width.js';
import { diffLines } from './diff-lines.js';
import { envelopeLines } from './envelope-lines.js';

/** Result lines shown before the rest is folded away. */
export const RESULT_LINES = 6;
/** Diff rows shown before the rest is folded away. */
export const DIFF_LINES = 20;

const END_MARK: Readonly<Record<ToolEnd, Span>> = {
  completed: { text: '✓', style: { fg: 'green' } },
  failed: { text: '✗', style: { fg: 'red' } },
  denied: { text: '⊘', style: { fg: 'yellow' } },
  interrupted: { text: '■', style: { fg: 'yellow' } },
};

const ELBOW: Span = { text: '  ⎿ ', style: { dim: true } };
const INDENT: Span = { text: '    ' };

/** Seconds as a person reads them: `0.4s`, `12s`, `3m05s`. */
export function duration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  if (seconds < 60) return `${Math.round(seconds)}s`;
  const m = Math.floor(seconds / 60);
  return `${m}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

/** A tool's one header line: its mark (a spinner frame while it runs), title and time. */
export function toolHeader(mark: Span, title: string, width: number, seconds?: number, note?: string): Line {
  const time = seconds !== undefined ? ` (${duration(seconds)})` : '';
  const extra = note ? ` ${note}` : '';
  const room = Math.max(1, width - 2 - time.length - extra.length);
  const spans: Span[] = [mark, { text: ' ' }, { text: truncate(title, room), style: { bold: true } }];
  if (time) spans.push({ text: time, style: { dim: true } });
  if (extra) spans.push({ text: extra, style: { dim: true } });
  return spans;
}

/** A live tool's header: `mark` is the spinner's frame, `now` gives the elapsed time; `asking` when a question waits on it. */
export function liveToolLine(tool: LiveTool, mark: string, now: number, width: number, asking = false): Line {
  const style: Style = tool.status === 'failed' ? { fg: 'red' } : { fg: 'cyan' };
  const running = tool.progress ? `running · ${tool.progress}` : 'running';
  const state = asking ? 'waiting for your answer' : tool.status === 'pending' ? 'waiting' : tool.status === 'in_progress' ? running : undefined;
  return toolHeader({ text: mark, style }, tool.title, width, Math.max(0, (now - tool.startedAt) / 1000), state);
}

function resultLines(text: string, width: number): Line[] {
  const rows = sanitize(text).replace(/\n+$/, '').split('\n');
  if (rows.length === 1 && rows[0] === '') return [];
  const lines: Line[] = rows.slice(0, RESULT_LINES).map((row) => [{ text: truncate(row, width), style: { dim: true } }]);
  if (rows.length > RESULT_LINES) lines.push([{ text: `… ${rows.length - RESULT_LINES} more lines`, style: { dim: true } }]);
  return lines;
}

/**
 * A finished tool call: its header, then its result folded past `RESULT_LINES` lines, an edit as a
 * coloured diff, or a failure's code and remediation.
 */
export function toolLines(item: Extract<FinishedItem, { kind: 'tool' }>, width: number): Line[] {
  const note = item.end === 'interrupted' ? 'interrupted' : item.end === 'denied' ? 'denied' : undefined;
  const lines: Line[] = [toolHeader(END_MARK[item.end], item.title, width, item.seconds, note)];
  const inner = Math.max(1, width - 4);
  const { outcome } = item;
  let body: Line[] = [];
  if (outcome.envelope) body = envelopeLines(outcome.envelope, inner);
  else if (outcome.diff) body = diffLines(outcome.diff, inner, DIFF_LINES);
  else if (outcome.text !== undefined) body = resultLines(outcome.text, inner);
  body.forEach((line, i) => lines.push([i === 0 ? ELBOW : INDENT, ...line]));
  return lines;
}
