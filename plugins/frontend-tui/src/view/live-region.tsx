import { Box } from 'ink';
import { LOCAL_COMMANDS } from '../commands/local-commands.js';
import { PromptEditor } from '../editor/prompt-editor.js';
import { statusLine } from '../layout/status-line.js';
import type { TuiController } from '../session/tui-controller.js';
import type { TuiState } from '../state/tui-state.js';
import { truncate } from '../terminal/text-width.js';
import { BusyLine } from './busy-line.js';
import { ConfirmationDialog, questionLines } from './confirmation-dialog.js';
import { ConnectionBanner } from './connection-banner.js';
import { LinesRows } from './lines-text.js';
import { LiveMessage } from './live-message.js';
import { LiveTools } from './live-tools.js';
import { SessionPicker } from './session-picker.js';
import { SetupFlow } from './setup-flow.js';

/** Running tools listed at once. */
const MAX_TOOLS = 5;

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
  const question = state.questions[0];
  const busy = state.turn !== 'idle';
  const streaming = state.stream.text.length > 0 || state.stream.thought.length > 0;
  const editorLines = Math.min(8, Math.max(1, rows - 12));
  const toolLines = Math.min(state.tools.length, MAX_TOOLS) + (state.tools.length > MAX_TOOLS ? 1 : 0);
  const listRows = Math.max(3, Math.min(8, rows - 10));
  const overlay = question
    ? questionLines(question, Math.max(1, width - 4), state.questions.length - 1).length + 2
    : state.picker
      ? listRows + 3
      : state.setup
        ? listRows + 4
        : editorLines + 7;
  const fixed = 1 + (state.connection.state === 'open' ? 0 : 1) + toolLines + (state.echo !== undefined ? 1 : 0) + (busy && !streaming && state.tools.length === 0 ? 1 : 0);
  const streamLines = Math.max(3, rows - 2 - fixed - overlay);
  let input;
  if (question) {
    input = <ConfirmationDialog active={!hidden} question={question} width={width} more={state.questions.length - 1} onAnswer={(callId, optionId) => controller.answer(callId, optionId)} onCancelTurn={() => controller.cancelTurn()} />;
  } else if (state.picker) {
    input = <SessionPicker sessions={state.picker.sessions} width={width} rows={listRows} onPick={(id) => controller.pick(id)} />;
  } else if (state.setup) {
    input = <SetupFlow providers={state.setup.providers} width={width} rows={listRows} onConfigure={(setup) => controller.configure(setup)} onSkip={() => controller.dispatch({ type: 'setup.finished' })} />;
  }
  return (
    <Box flexDirection="column" display={hidden ? 'none' : 'flex'}>
      {attached ? <ConnectionBanner connection={state.connection} width={width} /> : null}
      {state.echo !== undefined ? <LinesRows lines={[[{ text: truncate(`› ${state.echo.split('\n')[0]}`, width), style: { dim: true } }]]} /> : null}
      {streaming ? <LiveMessage text={state.stream.text} thought={state.stream.thought} width={width} showThinking={state.showThinking} maxLines={streamLines} /> : null}
      <LiveTools tools={state.tools} asking={state.questions.map((q) => q.toolCallId)} width={width} max={MAX_TOOLS} />
      {busy && !streaming && state.tools.length === 0 ? <BusyLine turn={state.turn} /> : null}
      <Box marginTop={1} flexDirection="column">
        {input}
        <Box display={input ? 'none' : 'flex'} flexDirection="column">
          <PromptEditor
            width={width}
            maxLines={editorLines}
            history={state.history}
            commands={[...LOCAL_COMMANDS, ...state.commands]}
            busy={busy}
            active={!hidden && input === undefined}
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
