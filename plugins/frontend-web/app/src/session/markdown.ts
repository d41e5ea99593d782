import DOMPurify from 'dompurify';
import { Marked } from 'marked';
import { escapeHtml, isSafeHref } from './markdown-policy.js';

// Raw HTML in a model's Markdown is shown as text, never parsed: marked's html tokens are escaped.
const marked = new Marked({ gfm: true, breaks: false, async: false, renderer: { html: ({ text }) => escapeHtml(text) } });

const purify = DOMPurify(window);
purify.setConfig({
  ALLOWED_TAGS: ['a', 'p', 'br', 'hr', 'em', 'strong', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input', 'span'],
  ALLOWED_ATTR: ['href', 'title', 'type', 'checked', 'disabled', 'align', 'start'],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
});
// Links go only to http(s) and mailto, and open without the console as their opener or referrer.
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'INPUT' && node.getAttribute('type') !== 'checkbox') node.remove();
  if (node.nodeName !== 'A') return;
  const href = node.getAttribute('href');
  if (href === null || !isSafeHref(href)) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('rel', 'noopener noreferrer');
  node.setAttribute('target', '_blank');
});

/**
 * Markdown from a model or a tool as a sanitised DOM fragment: parsed by marked with raw HTML escaped,
 * then cleaned by DOMPurify (a fixed allow-list of tags, no attributes that run code, safe links only).
 */
export function renderMarkdown(text: string): DocumentFragment {
  return purify.sanitize(marked.parse(text) as string) as unknown as DocumentFragment;
}
