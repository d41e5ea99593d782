import type { NodwynClient } from '@nodwyn/client';
import type { DesktopBridge } from '@nodwyn/protocol';
import type { Route } from './route.js';

/** What every page is given: the connected client, navigation, and the desktop bridge when present. */
export interface AppContext {
  readonly client: NodwynClient;
  navigate(route: Route): void;
  /** `window.nodwynDesktop` in the desktop app; undefined in a browser tab. */
  readonly desktop?: DesktopBridge;
}

/** A page drawn into `root`; the function it returns takes it down (listeners, attachments). */
export type Page = (root: HTMLElement, context: AppContext, route: Route) => () => void;

/** The desktop app's bridge, when the page runs inside it. */
export function desktopBridge(): DesktopBridge | undefined {
  const bridge = (window as { nodwynDesktop?: DesktopBridge }).nodwynDesktop;
  return bridge !== undefined && bridge.version === 1 ? bridge : undefined;
}
