/** @jsxRuntime automatic */
import type { TuiController } from '../session/tui-controller.js';
import type { TuiState } from '../state/tui-state.js';
import { ConfirmationDialog } from './confirmation-dialog.js';
import { SessionPicker } from './session-picker.js';
import { SetupFlow } from './setup-flow.js';

interface OverlayProps {
  readonly state: TuiState;
  readonly controller: TuiController;
  readonly width: number;
  readonly listRows: number;
  /** Whether it takes keys (not while the terminal is too small to show it). */
  readonly active: boolean;
}

/** What takes the keyboard from the editor, first first: a question, the session picker, the setup. */
export function Overlay({ state, controller, width, listRows, active }: OverlayProps) {
  const question = state.questions[0];
  if (question) {
    return (
      <ConfirmationDialog
        active={active}
        question={question}
        width={width}
        more={state.questions.length - 1}
        onAnswer={(callId, optionId) => controller.answer(callId, optionId)}
        onCancelTurn={() => controller.cancelTurn()}
      />
    );
  }
  if (state.picker) return <SessionPicker sessions={state.picker.sessions} width={width} rows={listRows} onPick={(id) => controller.pick(id)} />;
  if (state.setup) {
    return <SetupFlow providers={state.setup.providers} width={width} rows={listRows} onConfigure={(setup) => controller.configure(setup)} onSkip={() => controller.dispatch({ type: 'setup.finished' })} />;
  }
  return null;
}
