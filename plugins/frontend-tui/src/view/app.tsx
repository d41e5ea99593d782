/** @jsxRuntime automatic */
import { Static } from 'ink';
import { useSyncExternalStore } from 'react';
import type { TuiController } from '../session/tui-controller.js';
import type { FinishedItem } from '../state/finished-item.js';
import { ErrorBoundary } from './error-boundary.js';
import { FinishedView } from './finished-view.js';
import { KeyRouterProvider } from './key-router.js';
import { LiveRegion } from './live-region.js';
import { MIN_COLUMNS, MIN_ROWS, TooSmall } from './too-small.js';
import { useTerminalSize } from './use-terminal-size.js';

export interface AppProps {
  readonly controller: TuiController;
  /** The client is a daemon's: its connection state is shown. */
  readonly attached: boolean;
}

/**
 * The TUI: finished items printed once into the terminal's scrollback (ink's `<Static>`, never drawn
 * again, so a long session costs nothing per frame), and under them the live region. A terminal too small
 * to lay out shows a message instead; the live region stays mounted (hidden), so nothing typed is lost.
 */
export function App({ controller, attached }: AppProps) {
  const state = useSyncExternalStore(controller.store.subscribe, controller.store.getState);
  const { columns, rows } = useTerminalSize();
  const small = columns < MIN_COLUMNS || rows < MIN_ROWS;
  return (
    <KeyRouterProvider>
      <Static items={state.finished as FinishedItem[]}>
        {(item) => <FinishedView key={item.id} item={item} width={columns} showThinking={state.showThinking} />}
      </Static>
      {small ? <TooSmall columns={columns} rows={rows} /> : null}
      <ErrorBoundary resetKey={state}>
        <LiveRegion state={state} controller={controller} columns={Math.max(columns, MIN_COLUMNS)} rows={Math.max(rows, MIN_ROWS)} attached={attached} hidden={small} />
      </ErrorBoundary>
    </KeyRouterProvider>
  );
}
