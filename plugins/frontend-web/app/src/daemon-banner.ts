import type { DaemonState, DesktopBridge } from '@nodwyn/protocol';
import { h, replace } from './dom.js';

/**
 * The desktop app's daemon state, shown when it is not simply running: starting, restarting, stopped,
 * failed, or held by crash-loop protection with its last error and a button to start it again.
 */
export function daemonBanner(slot: HTMLElement, desktop: DesktopBridge): void {
  const show = (state: DaemonState) => {
    if (state.state === 'running') return replace(slot);
    const restart = h('button', { type: 'button', onClick: () => void desktop.restartDaemon().then(show) }, 'Restart the daemon');
    const held = state.state === 'crash-loop' || state.state === 'failed' || state.state === 'stopped';
    replace(
      slot,
      h(
        'div',
        { class: `banner banner-${state.state}`, role: 'alert' },
        h('strong', {}, `Daemon ${state.state}`),
        state.state === 'crash-loop' ? ` after ${state.crashes} crashes within 30 s; it is not restarted until you ask.` : '',
        state.lastError ? h('pre', { class: 'last-error' }, state.lastError) : undefined,
        held ? restart : undefined,
      ),
    );
  };
  desktop.onDaemonState(show);
  void desktop.daemonState().then(show);
}
