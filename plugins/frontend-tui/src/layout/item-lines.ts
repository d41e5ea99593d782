import { renderMarkdown } from '../markdown/render-markdown.js';
import type { FinishedItem, Tone } from '../state/finished-item.js';
import type { Line, Span, Style } from '../terminal/paint.js';
import { truncate } from '../terminal/text-width.js';
import { wrapSpans } from '../terminal/wrap.js';
import { envelopeLines } from './envelope-lines.js';
import { planLines } from './plan-lines.js';
import { toolLines } from './tool-lines.js';

/** A prompt longer than this many lines is folded in the scrollback (the log keeps it whole). */
const USER_LINES = 12;

const TONE: Readonly<Record<Tone, { mark: string; style?: Style }>> = {
  info: { mark: '' },
  dim: { mark: '', style: { dim: true } },
  warn: { mark: '! ', style: { fg: 'yellow' } },
  error: { mark: '✗ ', style: { fg: 'red' } },
};

function noticeLines(text: string, tone: Tone, width: number): Line[] {
  const { mark, style } = TONE[tone];
  const spans: Span[] = [{ text: text, ...(style ? { style } : {}) }];
  return wrapSpans(spans, width, { first: mark ? [{ text: mark, ...(style ? { style } : {}) }] : [], rest: mark ? [{ text: ' '.repeat(mark.length) }] : [] });
}

function userLines(text: string, width: number): Line[] {
  const rows = text.replace(/\n+$/, '').split('\n');
  const shown = rows.length > USER_LINES ? [...rows.slice(0, USER_LINES - 2)] : rows;
  const lines = wrapSpans([{ text: shown.join('\n') }], width, { first: [{ text: '› ', style: { fg: 'magenta', bold: true } }], rest: [{ text: '  ' }] });
  if (shown.length < rows.length) lines.push([{ text: `  … ${rows.length - shown.length} more lines`, style: { dim: true } }]);
  return lines;
}

/** Thinking, dimmed: whole when shown, else one line saying it is there. */
export function thinkingLines(blocks: readonly string[], width: number, shown: boolean): Line[] {
  const text = blocks.join('\n\n').trim();
  if (!text) return [];
  const style: Style = { dim: true, italic: true };
  if (!shown) {
    const count = text.split('\n').length;
    return [[{ text: truncate(`✻ Thinking (${count} ${count === 1 ? 'line' : 'lines'}; Ctrl+T shows it)`, width), style }]];
  }
  return wrapSpans([{ text, style }], width, { first: [{ text: '✻ ', style }], rest: [{ text: '  ' }] });
}

function turnLines(item: Extract<FinishedItem, { kind: 'turn' }>, width: number): Line[] {
  const stopped = item.reason === 'cancelled' || item.reason === 'interrupted';
  const label = item.reason === 'cancelled' ? 'Cancelled' : item.reason === 'interrupted' ? 'Interrupted' : `Stopped (${item.reason})`;
  const head: Line = [{ text: `${stopped ? '■' : '✗'} ${label}`, style: { fg: stopped ? 'yellow' : 'red', bold: true } }];
  if (!item.envelope || item.reason === 'cancelled') return [head];
  return [head, ...envelopeLines(item.envelope, Math.max(1, width - 2)).map((line) => [{ text: '  ' }, ...line])];
}

/** The lines of one finished item, laid out for `width` columns, with a blank line before a new exchange. */
export function itemLines(item: FinishedItem, width: number, showThinking: boolean): Line[] {
  switch (item.kind) {
    case 'session': {
      const title = item.title ? ` · ${item.title}` : '';
      return [[], [{ text: truncate(`── session ${item.sessionId}${title} `, width), style: { dim: true } }]];
    }
    case 'notice':
      return [...(item.tone === 'dim' ? [] : [[]]), ...noticeLines(item.text, item.tone, width)];
    case 'user':
      return [[], ...userLines(item.text, width)];
    case 'assistant': {
      const lines: Line[] = [[], ...thinkingLines(item.thinking, width, showThinking), ...renderMarkdown(item.text, width)];
      if (item.partial) lines.push([{ text: '(interrupted before it was logged)', style: { dim: true } }]);
      return lines;
    }
    case 'tool':
      return toolLines(item, width);
    case 'plan':
      return [[], ...planLines(item.entries, item.verdict, width)];
    case 'turn':
      return [[], ...turnLines(item, width)];
  }
}
