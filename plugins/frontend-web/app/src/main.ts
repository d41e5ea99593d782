import { connectWebSocket, type NodwynClient } from '@nodwyn/client';
import { desktopBridge, type AppContext, type Page } from './app-context.js';
import { daemonBanner } from './daemon-banner.js';
import { h, replace } from './dom.js';
import { errorView } from './error-view.js';
import { sessionsPage } from './pages/sessions-page.js';
import { parseRoute, routeHash, type Route } from './route.js';

/** The pages beyond the sessions list load on first use, so the list paints with little JavaScript. */
const lazyPages: Record<Exclude<Route['page'], 'sessions'>, () => Promise<Page>> = {
  session: () => import('./session/session-page.js').then((m) => m.sessionPage),
  log: () => import('./pages/log-page.js').then((m) => m.logPage),
  capabilities: () => import('./pages/capabilities-page.js').then((m) => m.capabilitiesPage),
  secrets: () => import('./pages/secrets-page.js').then((m) => m.secretsPage),
  bindings: () => import('./pages/bindings-page.js').then((m) => m.bindingsPage),
  settings: () => import('./pages/settings-page.js').then((m) => m.settingsPage),
};

const NAV: readonly [Route, string][] = [
  [{ page: 'sessions' }, 'Sessions'],
  [{ page: 'capabilities' }, 'Capabilities'],
  [{ page: 'secrets' }, 'Secrets'],
  [{ page: 'bindings' }, 'Bindings'],
  [{ page: 'settings' }, 'Settings'],
];

/** The daemon's WebSocket on this page's own origin; the browser sends the console's cookie with it. */
function acpUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/acp`;
}

function shell(): { main: HTMLElement; connection: HTMLElement; nav: HTMLElement; banner: HTMLElement } {
  const connection = h('span', { class: 'connection', role: 'status', 'aria-live': 'polite' }, 'connecting…');
  const nav = h('nav', { 'aria-label': 'Console' }, h('ul', {}, ...NAV.map(([route, label]) => h('li', {}, h('a', { href: routeHash(route), 'data-page': route.page }, label)))));
  const banner = h('div', { class: 'banner-slot' });
  const main = h('main', { id: 'main', tabindex: '-1' });
  const app = document.getElementById('app')!;
  // A button, not a `#main` link: the hash is the router's.
  const skip = h('button', { type: 'button', class: 'skip', onClick: () => main.focus() }, 'Skip to content');
  replace(app, skip, h('header', {}, h('a', { href: '#/sessions', class: 'brand' }, 'nodwyn'), nav, connection), banner, main);
  return { main, connection, nav, banner };
}

function showConnection(el: HTMLElement, state: string, detail?: string): void {
  el.className = `connection connection-${state}`;
  el.textContent = detail ? `${state}: ${detail}` : state;
}

function router(context: AppContext, main: HTMLElement, nav: HTMLElement): void {
  let unmount: (() => void) | undefined;
  let generation = 0;
  const show = async () => {
    const route = parseRoute(location.hash);
    const mine = ++generation;
    for (const link of nav.querySelectorAll('a')) {
      if (link.dataset.page === route.page || (route.page !== 'sessions' && link.dataset.page === 'sessions' && (route.page === 'session' || route.page === 'log'))) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    unmount?.();
    unmount = undefined;
    let page: Page;
    try {
      page = route.page === 'sessions' ? sessionsPage : await lazyPages[route.page]();
    } catch (error) {
      replace(main, errorView(error));
      return;
    }
    if (mine !== generation) return;
    unmount = page(main, context, route);
  };
  window.addEventListener('hashchange', () => void show());
  void show();
}

async function start(): Promise<void> {
  const { main, connection, nav, banner } = shell();
  // The first page's code loads while the WebSocket connects, not after.
  const first = parseRoute(location.hash);
  if (first.page !== 'sessions') void lazyPages[first.page]().catch(() => undefined);
  const desktop = desktopBridge();
  if (desktop) daemonBanner(banner, desktop);
  let client: NodwynClient;
  try {
    client = await connectWebSocket({ url: acpUrl(), clientInfo: { name: 'nodwyn-web', version: '0.1.0', title: 'nodwyn web console' } });
  } catch (error) {
    showConnection(connection, 'closed');
    replace(main, h('h1', {}, 'Not connected'), errorView(error), h('p', {}, 'Run `nodwyn web` for a fresh login link, then open it in this browser.'));
    return;
  }
  // Marks the bench reads (tools/bench/web-bench.ts) to split a first paint into its parts.
  performance.mark('nodwyn:connected');
  showConnection(connection, 'open');
  client.onEvent((event) => {
    if (event.type === 'connection') showConnection(connection, event.state, event.state === 'reconnecting' ? `attempt ${event.attempt ?? 1}` : event.error);
    if (event.type === 'confirmation' && desktop && !document.hasFocus()) {
      desktop.notify({ title: `nodwyn asks: ${event.request.tool}`.slice(0, 200), body: event.request.reason.slice(0, 1000), sessionId: event.request.sessionId });
    }
  });
  const context: AppContext = { client, desktop, navigate: (route) => void (location.hash = routeHash(route)) };
  router(context, main, nav);
}

void start();
