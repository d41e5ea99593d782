/** A child of `h`: an element, text (always set as a text node, never parsed), or nothing. */
export type Child = Node | string | number | false | undefined | null;

/** Attributes and listeners of `h`: `on*` functions become listeners, the rest attributes (`true` → empty). */
export type Props = Record<string, string | number | boolean | undefined | ((event: never) => void)>;

/**
 * Builds an element. Text children become text nodes, so nothing a model, a tool or the daemon wrote is
 * ever parsed as HTML here; the one place HTML is made is the sanitised Markdown (markdown.ts).
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(key.slice(2).toLowerCase(), value as EventListener);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children (text as text nodes). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}
