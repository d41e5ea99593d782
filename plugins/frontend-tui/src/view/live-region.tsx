/** @jsxRuntime automatic */
import { Box } from 'ink';
import { LOCAL_COMMANDS } from '../commands/local-commands.js';
import { PromptEditor } from '../editor/prompt-editor.js';
import { hasOverlay, liveBudget, MAX_TOOLS } from '../layout/live-budget.js';
import { statusLine } from '../layout/status-line.js';
import type { TuiController } from '../session/tui-controller.js';
import type { TuiState } from '../state/tui-state.js';
import { truncate } from '../terminal/text-width.js';
import { BusyLine } from './busy-line.js';
import { ConnectionBanner } from './connection-banner.js';
import { LinesRows } from './lines-text.js';
import { LiveMessage } from './live-message.js';
import { LiveTools } from './live-tools.js';
import { Overlay } from './overlay.js';

interface LiveRegionProps {
  readonly state: TuiState;
  readonly controller: TuiController;
  readonly columns: number;
  readonly rows: number;
  readonly attached: boolean;
  /** The terminal is too small: nothing is drawn and no key is taken, but what was typed is kept. */
  readonly hidden: boolean;
}

/**
 * Everything that still changes, under the scrollback: the streaming answer, running tools, the dialog or
 * the editor, and the status line. Its height stays below the terminal's, so ink redraws only this
 * region and never the scrollback, however long the session.
 */
export function LiveRegion({ state, controller, columns, rows, attached, hidden }: LiveRegionProps) {
  const width = columns;
  const budget = liveBudget(state, rows, width);
  const busy = state.turn !== 'idle';
  const streaming = state.stream.text.length > 0 || state.stream.thought.length > 0;
  const overlay = hasOverlay(state);
  return (
    <Box flexDirection="column" display={hidden ? 'none' : 'flex'}>
      {attached ? <ConnectionBanner connection={state.connection} width={width} /> : null}
      {state.echo !== undefined ? <LinesRows lines={[[{ text: truncate(`› ${state.echo.split('\n')[0]}`, width), style: { dim: true } }]]} /> : null}
      {streaming ? <LiveMessage text={state.stream.text} thought={state.stream.thought} width={width} showThinking={state.showThinking} maxLines={budget.streamLines} /> : null}
      <LiveTools tools={state.tools} asking={state.questions.map((q) => q.toolCallId)} width={width} max={MAX_TOOLS} />
      {busy && !streaming && state.tools.length === 0 ? <BusyLine turn={state.turn} /> : null}
      <Box marginTop={1} flexDirection="column">
        {overlay ? <Overlay state={state} controller={controller} width={width} listRows={budget.listRows} active={!hidden} /> : null}
        <Box display={overlay ? 'none' : 'flex'} flexDirection="column">
          <PromptEditor
            width={width}
            maxLines={budget.editorLines}
            history={state.history}
            commands={[...LOCAL_COMMANDS, ...state.commands]}
            busy={busy}
            active={!hidden && !overlay}
            onSubmit={(text) => controller.submit(text)}
            onQuit={() => controller.quit(0)}
            onCancelTurn={() => controller.cancelTurn()}
            onToggleThinking={() => controller.toggleThinking()}
            completeFiles={(prefix) => controller.completeFiles(prefix)}
          />
        </Box>
      </Box>
      <LinesRows lines={[statusLine(state, width, attached)]} />
    </Box>
  );
}
