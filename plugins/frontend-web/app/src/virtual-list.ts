import { h } from './dom.js';
import { rowAt, rowOffsets, visibleWindow } from './virtual-window.js';

/** How a virtualised list draws its rows. */
export interface VirtualListOptions<T> {
  readonly key: (item: T) => string;
  readonly render: (item: T) => HTMLElement;
  /** A row's height before it was measured. */
  readonly estimate: (item: T) => number;
  /** Scrolled near the top: the place to load earlier rows. */
  readonly onNearTop?: () => void;
  /** Put after the rows, inside the scroller (the live region of a session). */
  readonly footer?: HTMLElement;
  readonly label: string;
}

/**
 * A list that keeps only the rows in view in the DOM (docs/architecture.md §10: a 100 MB session must
 * open as fast as a fresh one), measuring each row once drawn. It sticks to the bottom while the person
 * is there, and keeps its place when rows are put before the ones shown.
 */
export class VirtualList<T> {
  readonly element: HTMLElement;
  private readonly padTop = h('div', { class: 'vpad', 'aria-hidden': 'true' });
  private readonly rows = h('div', { class: 'vrows', role: 'list' });
  private readonly padBottom = h('div', { class: 'vpad', 'aria-hidden': 'true' });
  private readonly heights = new Map<string, number>();
  private readonly drawn = new Map<string, HTMLElement>();
  private items: readonly T[] = [];
  private offsets = rowOffsets(0, () => 0);
  private stick = true;
  private anchor: { readonly key: string; readonly delta: number } | undefined;
  private frame = 0;

  constructor(private readonly options: VirtualListOptions<T>) {
    this.element = h('div', { class: 'vlist', tabindex: '0', 'aria-label': options.label }, this.padTop, this.rows, this.padBottom, options.footer);
    this.element.addEventListener('scroll', () => this.onScroll(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  /** Shows `items`; rows already drawn (same key) are kept as they are, and so is the row at the top. */
  set(items: readonly T[]): void {
    this.items = items;
    this.offsets = rowOffsets(items.length, (i) => this.heightOf(items[i]!));
    this.draw(this.anchored());
  }

  /** Redraws (the footer changed, say) and follows the bottom if the person is there. */
  refresh(): void {
    this.draw();
  }

  /** Forgets a drawn row so it is rendered again (its content changed). */
  invalidate(key: string): void {
    this.drawn.delete(key);
  }

  private heightOf(item: T): number {
    return this.heights.get(this.options.key(item)) ?? this.options.estimate(item);
  }

  private onScroll(): void {
    const el = this.element;
    this.stick = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
    if (el.scrollTop < 200) this.options.onNearTop?.();
    this.schedule();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws the rows in view at `top` (the scroll position now, unless given), and scrolls there. */
  private draw(top?: number): void {
    const el = this.element;
    const at = top ?? el.scrollTop;
    const window = visibleWindow(this.offsets, at, el.clientHeight || 800);
    const keep = new Set<string>();
    const nodes: HTMLElement[] = [];
    for (let i = window.start; i < window.end; i++) {
      const item = this.items[i]!;
      const key = this.options.key(item);
      keep.add(key);
      let node = this.drawn.get(key);
      if (!node) {
        node = this.options.render(item);
        node.setAttribute('role', 'listitem');
        this.drawn.set(key, node);
      }
      nodes.push(node);
    }
    for (const key of [...this.drawn.keys()]) if (!keep.has(key)) this.drawn.delete(key);
    this.rows.replaceChildren(...nodes);
    this.pad(window.start, window.end);
    // Padded first: a scroll position past the old height would be cut short.
    if (top !== undefined) el.scrollTop = top;
    this.remember(at);
    if (this.measure(window.start, nodes)) {
      this.pad(window.start, window.end);
      const kept = this.anchored();
      if (kept !== undefined) el.scrollTop = kept;
      this.schedule();
    }
    if (this.stick) el.scrollTop = el.scrollHeight;
    // Rows too few to scroll: no scroll-up will ever ask for earlier ones, so ask now.
    if (window.total <= el.clientHeight && this.items.length > 0) this.options.onNearTop?.();
  }

  /**
   * Notes which row is at the top of the view and how far into it: the place to keep when rows are put
   * before it (earlier events loaded) or rows above it turn out taller than estimated. The browser's own
   * scroll anchoring is off (styles.css), since the space above the rows is padding, not rows.
   */
  private remember(scrollTop: number): void {
    if (this.items.length === 0) return;
    const index = rowAt(this.offsets, scrollTop);
    this.anchor = { key: this.options.key(this.items[index]!), delta: scrollTop - this.offsets[index]! };
  }

  /** Where the remembered row now is; undefined when the list follows its bottom or the row is gone. */
  private anchored(): number | undefined {
    if (this.stick || this.anchor === undefined) return undefined;
    const key = this.anchor.key;
    const index = this.items.findIndex((item) => this.options.key(item) === key);
    return index >= 0 ? this.offsets[index]! + this.anchor.delta : undefined;
  }

  /** The space the rows before `start` and from `end` on take. */
  private pad(start: number, end: number): void {
    const total = this.offsets[this.items.length]!;
    this.padTop.style.height = `${this.offsets[start]!}px`;
    this.padBottom.style.height = `${total - this.offsets[end]!}px`;
  }

  /** Records the drawn rows' heights; true when one differed from what the offsets assumed. */
  private measure(start: number, nodes: readonly HTMLElement[]): boolean {
    let changed = false;
    nodes.forEach((node, i) => {
      const item = this.items[start + i]!;
      const height = node.offsetHeight;
      if (height > 0 && Math.abs(height - this.heightOf(item)) > 1) {
        this.heights.set(this.options.key(item), height);
        changed = true;
      }
    });
    if (changed) this.offsets = rowOffsets(this.items.length, (i) => this.heightOf(this.items[i]!));
    return changed;
  }
}
