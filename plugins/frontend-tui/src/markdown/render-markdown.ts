import { Lexer, type Token, type Tokens } from 'marked';
import type { Line, Span, Style } from '../terminal/paint.js';
import { sanitize } from '../terminal/sanitize.js';
import { textWidth } from '../terminal/text-width.js';
import { wrapHard, wrapSpans } from '../terminal/wrap.js';
import { highlightCode } from './highlight-code.js';
import { inlineSpans } from './inline-spans.js';
import { tableLines } from './table-lines.js';

const GUTTER: Span = { text: '│ ', style: { fg: 'gray' } };
const HEADING: readonly Style[] = [
  { bold: true, underline: true, fg: 'magenta' },
  { bold: true, fg: 'magenta' },
  { bold: true },
];

/** Prefixes `lines` (the first with `first`, the others with `rest`), for list markers and quotes. */
function prefixed(lines: readonly Line[], first: Line, rest: Line): Line[] {
  return lines.map((line, i) => [...(i === 0 ? first : rest), ...line]);
}

function codeLines(token: Tokens.Code, width: number): Line[] {
  const source = token.text.replace(/\n+$/, '');
  const lines: Line[] = [];
  for (const line of highlightCode(source, token.lang)) {
    for (const part of wrapHard(line, Math.max(1, width - 2))) lines.push([GUTTER, ...part]);
  }
  return lines;
}

function listLines(list: Tokens.List, width: number): Line[] {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((_, i) => (list.ordered ? `${start + i}. ` : '• '));
  const markerWidth = Math.max(...markers.map(textWidth));
  const lines: Line[] = [];
  list.items.forEach((item, i) => {
    if (i > 0 && list.loose) lines.push([]);
    const marker = markers[i]!.padStart(list.ordered ? markerWidth : 0);
    const body = blockLines(item.tokens, Math.max(1, width - markerWidth), item.loose);
    lines.push(...prefixed(body.length > 0 ? body : [[]], [{ text: marker, style: { fg: 'gray' } }], [{ text: ' '.repeat(markerWidth) }]));
  });
  return lines;
}

function block(token: Token, width: number): Line[] {
  switch (token.type) {
    case 'heading':
      return wrapSpans(inlineSpans(token.tokens ?? [], HEADING[Math.min(token.depth, 3) - 1]), width);
    case 'paragraph':
      return wrapSpans(inlineSpans(token.tokens ?? []), width);
    case 'text':
      return wrapSpans(token.tokens ? inlineSpans(token.tokens) : [{ text: token.text }], width);
    case 'code':
      return codeLines(token as Tokens.Code, width);
    case 'blockquote': {
      const bar: Span = { text: '▌ ', style: { fg: 'gray' } };
      const inner = blockLines(token.tokens ?? [], Math.max(1, width - 2), true);
      return prefixed(inner, [bar], [bar]).map((line) => line.map((s) => (s === bar ? s : { ...s, style: { ...s.style, italic: true } })));
    }
    case 'list':
      return listLines(token as Tokens.List, width);
    case 'table':
      return tableLines(token as Tokens.Table, width);
    case 'hr':
      return [[{ text: '─'.repeat(Math.max(1, width)), style: { fg: 'gray' } }]];
    case 'checkbox':
      return [[{ text: token.checked ? '[x] ' : '[ ] ' }]];
    case 'space':
    case 'def':
      return [];
    default:
      return wrapSpans([{ text: String(token.raw).replace(/\n+$/, '') }], width);
  }
}

/** Blocks one after the other; `spaced` puts a blank line between them (loose lists, top level). */
function blockLines(tokens: readonly Token[], width: number, spaced: boolean): Line[] {
  const lines: Line[] = [];
  let pendingCheckbox: Span | undefined;
  for (const token of tokens) {
    if (token.type === 'checkbox') {
      pendingCheckbox = { text: token.checked ? '[x] ' : '[ ] ' };
      continue;
    }
    let out = block(token, width);
    if (out.length === 0) continue;
    if (pendingCheckbox) {
      out = [[pendingCheckbox, ...out[0]!], ...out.slice(1)];
      pendingCheckbox = undefined;
    }
    if (spaced && lines.length > 0) lines.push([]);
    lines.push(...out);
  }
  return lines;
}

/**
 * Markdown as terminal lines of at most `width` columns: headings, paragraphs, lists with hanging
 * indents, code blocks coloured by language behind a gutter, tables fitted to the width, quotes and
 * rules. The text is sanitized first, so nothing in it can drive the terminal.
 */
export function renderMarkdown(source: string, width: number): Line[] {
  const text = sanitize(source);
  if (text.trim().length === 0) return [];
  return blockLines(Lexer.lex(text, { gfm: true }), Math.max(8, width), true);
}
