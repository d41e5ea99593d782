import { Box } from 'ink';
import { useKeys } from './key-router.js';
import type { Question } from '../state/tui-state.js';
import type { Line, Span } from '../terminal/paint.js';
import { sanitize } from '../terminal/sanitize.js';
import { wrapSpans } from '../terminal/wrap.js';
import { LinesRows } from './lines-text.js';
import { optionKeys } from './option-keys.js';
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

/** The dialog's lines: what asks, why, where a secret would go, and the keys that answer. */
export function questionLines(question: Question, width: number, more: number): Line[] {
  const tone = question.security ? 'red' : 'yellow';
  const head = question.security ? 'A secret would leave: allow it?' : `Allow ${question.tool}?`;
  const lines: Line[] = [[{ text: head, style: { fg: tone, bold: true } }, ...(more > 0 ? [{ text: `  (+${more} waiting)`, style: { dim: true } }] : [])]];
  if (question.title && question.title !== question.tool) lines.push(...wrapSpans([{ text: sanitize(question.title), style: { bold: true } }], width));
  const why: Span[] = [];
  if (question.tier) why.push({ text: question.tier, style: { fg: tone } });
  if (question.reason) why.push({ text: `${why.length > 0 ? ' · ' : ''}${sanitize(question.reason)}` });
  if (why.length > 0) lines.push(...wrapSpans(why, width));
  for (const subject of question.subjects ?? []) lines.push(...wrapSpans([{ text: `secret of class ${subject.class} → ${subject.destination}`, style: { fg: 'red' } }], width));
  const keys: Span[] = [];
  for (const { key, option } of optionKeys(question.options)) {
    if (keys.length > 0) keys.push({ text: '   ' });
    keys.push({ text: `[${key}]`, style: { bold: true, fg: option.kind.startsWith('allow') ? 'green' : 'red' } }, { text: ` ${option.name}` });
  }
  lines.push([], ...wrapSpans(keys, width));
  return lines;
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
