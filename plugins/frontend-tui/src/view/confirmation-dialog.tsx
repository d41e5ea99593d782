/** @jsxRuntime automatic */
import { Box } from 'ink';
import { optionKeys } from '../layout/option-keys.js';
import { questionLines } from '../layout/question-lines.js';
import type { Question } from '../state/tui-state.js';
import { useKeys } from './key-router.js';
import { LinesRows } from './lines-text.js';
import { usePaint } from './paint-context.js';

interface ConfirmationDialogProps {
  readonly question: Question;
  readonly width: number;
  /** Questions waiting after this one. */
  readonly more: number;
  /** Whether keys go to the dialog. */
  readonly active: boolean;
  onAnswer(callId: string, optionId: string): void;
  onCancelTurn(): void;
}

/**
 * A confirmation: the tool, its tier and the reason, for a secret its class and destination (never a
 * value), and exactly the options the agent offered, each answered with one key. Esc cancels the turn.
 */
export function ConfirmationDialog({ question, width, more, active, onAnswer, onCancelTurn }: ConfirmationDialogProps) {
  const paint = usePaint();
  const keys = optionKeys(question.options);
  useKeys((input, key) => {
    if (key.escape) return onCancelTurn();
    const hit = keys.find((k) => k.key === input.toLowerCase());
    if (hit) onAnswer(question.callId, hit.option.optionId);
  }, active);
  const color = paint.color ? (question.security ? 'red' : 'yellow') : undefined;
  return (
    <Box borderStyle="round" {...(color ? { borderColor: color } : {})} paddingX={1} flexDirection="column" width={width}>
      <LinesRows lines={questionLines(question, Math.max(1, width - 4), more)} />
    </Box>
  );
}
