/** Text with the five HTML metacharacters escaped, so it reads as text wherever HTML is parsed. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Whether a link in Markdown may stay a link: only http(s) and mailto URLs, never `javascript:` or `data:`. */
export function isSafeHref(href: string): boolean {
  // Browsers ignore control characters and spaces inside a scheme (`java\tscript:`): strip them first.
  const compact = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (scheme === null) return false;
  return ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}
