import type { Line, Span, Style } from '../terminal/paint.js';
import { wrapHard } from '../terminal/wrap.js';
import type { EditorState } from './editor-state.js';

const PROMPT: Span = { text: '› ', style: { fg: 'magenta', bold: true } };
const CURSOR: Style = { inverse: true };
const PLACEHOLDER: Style = { fg: 'cyan' };

/** Splits one line of the input into spans: paste placeholders stand out, the cursor is inverted. */
function spansOf(line: string, offset: number, state: EditorState, cursorShown: boolean): Span[] {
  const marks = Object.keys(state.pastes);
  const spans: Span[] = [];
  let i = 0;
  while (i < line.length) {
    const mark = marks.find((m) => line.startsWith(m, i));
    const text = mark ?? line.slice(i, i + (line.codePointAt(i)! > 0xffff ? 2 : 1));
    const at = offset + i;
    if (cursorShown && state.cursor >= at && state.cursor < at + text.length) {
      spans.push({ text: text.slice(0, state.cursor - at), ...(mark ? { style: PLACEHOLDER } : {}) });
      const rest = text.slice(state.cursor - at);
      const ch = rest.slice(0, rest.codePointAt(0)! > 0xffff ? 2 : 1);
      spans.push({ text: ch, style: CURSOR });
      if (rest.length > ch.length) spans.push({ text: rest.slice(ch.length), ...(mark ? { style: PLACEHOLDER } : {}) });
    } else {
      spans.push({ text, ...(mark ? { style: PLACEHOLDER } : {}) });
    }
    i += text.length;
  }
  if (cursorShown && state.cursor === offset + line.length) spans.push({ text: ' ', style: CURSOR });
  return spans.filter((s) => s.text.length > 0);
}

/**
 * The input as lines for `width` columns: a prompt, the text wrapped hard (nothing is hidden), the
 * cursor shown inverted, at most `maxLines` lines around the cursor. An empty input shows `placeholder`.
 */
export function editorLines(state: EditorState, width: number, maxLines: number, placeholder: string, cursorShown = true): Line[] {
  const inner = Math.max(1, width - 2);
  if (state.text.length === 0) {
    return [[PROMPT, ...(cursorShown ? [{ text: ' ', style: CURSOR }] : []), { text: placeholder.slice(0, inner - 1), style: { dim: true } }]];
  }
  const lines: Line[] = [];
  let cursorLine = 0;
  let offset = 0;
  for (const line of state.text.split('\n')) {
    const wrapped = wrapHard(spansOf(line, offset, state, cursorShown), inner);
    if (state.cursor >= offset && state.cursor <= offset + line.length) {
      const inLine = wrapped.findIndex((l) => l.some((s) => s.style === CURSOR));
      cursorLine = lines.length + Math.max(0, inLine);
    }
    for (const part of wrapped) lines.push([lines.length === 0 ? PROMPT : { text: '  ' }, ...part]);
    offset += line.length + 1;
  }
  if (lines.length <= maxLines) return lines;
  const first = Math.min(Math.max(0, cursorLine - Math.floor(maxLines / 2)), lines.length - maxLines);
  return lines.slice(first, first + maxLines);
}
