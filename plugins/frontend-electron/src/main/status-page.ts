import type { DaemonState } from '@nodwyn/protocol';

const WHAT: Record<DaemonState['state'], string> = {
  starting: 'Starting the nodwyn daemon…',
  running: 'The daemon is running.',
  restarting: 'The daemon stopped; starting it again…',
  stopped: 'The daemon is stopped.',
  'crash-loop': 'The daemon crashed three times within 30 seconds, so it is not restarted. Fix the error below, then choose Daemon → Restart in the menu.',
  failed: 'The daemon failed to start. Choose Daemon → Restart in the menu to try again.',
};

/**
 * The page shown while no daemon serves the console (starting, or stopped by the crash-loop rule): a
 * `data:` URL with no script at all, the last error as escaped text.
 */
export function statusPage(state: DaemonState): string {
  const error = state.lastError ? `<pre>${escapeHtml(state.lastError)}</pre>` : '';
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>nodwyn</title><style>body{font:15px system-ui,sans-serif;margin:3em;max-width:50em}pre{white-space:pre-wrap;background:#f4f4f4;padding:1em}</style></head><body><h1>nodwyn</h1><p>${escapeHtml(WHAT[state.state])}</p>${error}</body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
