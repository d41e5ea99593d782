import type { Line, Span, Style } from '../terminal/paint.js';

/** The parts of cli-highlight the TUI uses. */
interface Highlighter {
  highlight(code: string, options: { language: string; ignoreIllegals: boolean; theme: Record<string, (text: string) => string> }): string;
  supportsLanguage(name: string): boolean;
}

/** Code longer than this is shown plain: colouring it would hold up the screen for little gain. */
const HIGHLIGHT_MAX = 40_000;

/** highlight.js token classes and how they look, in the terminal's named colours only. */
const CLASS_STYLES: Readonly<Record<string, Style>> = {
  keyword: { fg: 'magenta' },
  'selector-tag': { fg: 'magenta' },
  built_in: { fg: 'cyan' },
  type: { fg: 'cyan' },
  class: { fg: 'cyan' },
  literal: { fg: 'blue' },
  number: { fg: 'yellow' },
  symbol: { fg: 'yellow' },
  attr: { fg: 'yellow' },
  attribute: { fg: 'yellow' },
  string: { fg: 'green' },
  regexp: { fg: 'red' },
  addition: { fg: 'green' },
  deletion: { fg: 'red' },
  variable: { fg: 'red' },
  tag: { fg: 'red' },
  title: { fg: 'blue' },
  function: { fg: 'blue' },
  name: { fg: 'blue' },
  section: { fg: 'blue', bold: true },
  comment: { fg: 'gray', italic: true },
  quote: { fg: 'gray', italic: true },
  doctag: { fg: 'gray' },
  meta: { fg: 'gray' },
};

const STYLE_LIST = Object.values(CLASS_STYLES);
const OPEN = '\uE000';
const CLOSE = '\uE001';
/** Each class wraps its text in markers (private-use characters), so nested classes parse back into spans. */
const THEME: Record<string, (text: string) => string> = Object.fromEntries(
  Object.keys(CLASS_STYLES).map((name, i) => [name, (text: string) => `${OPEN}${String.fromCharCode(0xe100 + i)}${text}${CLOSE}`]),
);

let highlighter: Highlighter | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads cli-highlight (highlight.js with every language: about 150 ms) off the first frame's path; code
 * drawn before it is ready is shown plain.
 */
export function loadHighlighter(): Promise<void> {
  loading ??= import('cli-highlight').then((module: Partial<Highlighter> & { default?: Partial<Highlighter> }) => {
    // Node hands a CommonJS module over as `default`; bundlers honour its `__esModule` and name the exports.
    const api = typeof module.supportsLanguage === 'function' ? module : module.default;
    if (typeof api?.highlight === 'function' && typeof api.supportsLanguage === 'function') highlighter = api as Highlighter;
  });
  return loading;
}

/** The lines of `code`, coloured by its language when that is known and the highlighter is loaded. */
export function highlightCode(code: string, language: string | undefined): Line[] {
  const lang = language?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!highlighter || !lang || code.length > HIGHLIGHT_MAX || !highlighter.supportsLanguage(lang)) return plain(code);
  let marked: string;
  try {
    marked = highlighter.highlight(code, { language: lang, ignoreIllegals: true, theme: THEME });
  } catch {
    // A grammar that fails on this input: the code is still shown, uncoloured.
    return plain(code);
  }
  return spansOf(marked);
}

function plain(code: string): Line[] {
  return code.split('\n').map((text) => (text.length > 0 ? [{ text }] : []));
}

/** Parses the markers back into lines of styled spans; an inner class wins over the one around it. */
function spansOf(marked: string): Line[] {
  const lines: Span[][] = [[]];
  const stack: Style[] = [];
  let text = '';
  const flush = (): void => {
    if (text.length === 0) return;
    const style = stack.at(-1);
    lines.at(-1)!.push(style ? { text, style } : { text });
    text = '';
  };
  for (let i = 0; i < marked.length; i++) {
    const ch = marked[i]!;
    if (ch === OPEN) {
      flush();
      stack.push(STYLE_LIST[marked.charCodeAt(++i) - 0xe100] ?? {});
    } else if (ch === CLOSE) {
      flush();
      stack.pop();
    } else if (ch === '\n') {
      flush();
      lines.push([]);
    } else {
      text += ch;
    }
  }
  flush();
  return lines;
}
