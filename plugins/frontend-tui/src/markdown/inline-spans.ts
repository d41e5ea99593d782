import type { Token } from 'marked';
import type { Span, Style } from '../terminal/paint.js';

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the HTML entities a model writes in Markdown (`&amp;`, `&#39;`, `&#x2192;`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(Number.parseInt(name.slice(2), 16)) ?? whole;
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10)) ?? whole;
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(cp: number): string | undefined {
  return Number.isFinite(cp) && cp > 0x1f && cp <= 0x10ffff && (cp < 0x7f || cp > 0x9f) ? String.fromCodePoint(cp) : undefined;
}

const span = (text: string, style: Style | undefined): Span => (style ? { text, style } : { text });

/**
 * Inline Markdown (emphasis, code, links, line breaks) as styled spans. A soft line break inside a
 * paragraph is a space, as in rendered Markdown; a hard one (`<br>`, two trailing spaces) is a newline.
 */
export function inlineSpans(tokens: readonly Token[], style?: Style): Span[] {
  const spans: Span[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        if (token.tokens && token.tokens.length > 0) spans.push(...inlineSpans(token.tokens, style));
        else spans.push(span(decodeEntities(String(token.text)).replace(/\n/g, ' '), style));
        break;
      case 'strong':
        spans.push(...inlineSpans(token.tokens ?? [], { ...style, bold: true }));
        break;
      case 'em':
        spans.push(...inlineSpans(token.tokens ?? [], { ...style, italic: true }));
        break;
      case 'del':
        spans.push(...inlineSpans(token.tokens ?? [], { ...style, strike: true }));
        break;
      case 'codespan':
        spans.push(span(decodeEntities(String(token.text)), { ...style, fg: 'cyan' }));
        break;
      case 'link': {
        spans.push(...inlineSpans(token.tokens ?? [], { ...style, fg: 'blue', underline: true }));
        const href = String(token.href);
        if (href !== token.text && `mailto:${String(token.text)}` !== href) spans.push(span(` (${href})`, { ...style, fg: 'gray' }));
        break;
      }
      case 'image':
        spans.push(span(`[image: ${String(token.text) || String(token.href)}]`, { ...style, fg: 'gray' }));
        break;
      case 'br':
        spans.push(span('\n', style));
        break;
      case 'checkbox':
        spans.push(span(token.checked ? '[x] ' : '[ ] ', style));
        break;
      case 'escape':
        spans.push(span(decodeEntities(String(token.text)), style));
        break;
      default:
        spans.push(span(String(token.raw).replace(/\n/g, ' '), style));
    }
  }
  return spans;
}
