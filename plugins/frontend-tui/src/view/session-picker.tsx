/** @jsxRuntime automatic */
import { Box } from 'ink';
import type { SessionSummary } from '@nodwyn/protocol';
import { ago } from '../session/session-rows.js';
import { useKeys } from './key-router.js';
import { LinesRows } from './lines-text.js';
import { SelectList } from './select-list.js';

interface SessionPickerProps {
  readonly sessions: readonly SessionSummary[];
  readonly width: number;
  readonly rows: number;
  /** The chosen session, or undefined to stay (or start a new one). */
  onPick(sessionId: string | undefined): void;
}

function EmptyPicker({ onPick }: Pick<SessionPickerProps, 'onPick'>) {
  useKeys((_input, key) => {
    if (key.return || key.escape) onPick(undefined);
  });
  return <LinesRows lines={[[{ text: 'No sessions in this workspace yet. Enter or Esc starts a new one.', style: { dim: true } }]]} />;
}

/** This workspace's sessions, newest first: title, when, state and size; Enter continues one. */
export function SessionPicker({ sessions, width, rows, onPick }: SessionPickerProps) {
  const now = Date.now();
  const items = sessions.map((s) => ({
    label: `${s.title ?? '(untitled)'} · ${ago(s.lastActivity, now)}`,
    detail: `${s.sessionId} · ${s.state} · ${s.events} events`,
  }));
  return (
    <Box flexDirection="column">
      <LinesRows lines={[[{ text: 'Continue a session', style: { bold: true } }, { text: '  ↑↓ choose · Enter opens · Esc cancels', style: { dim: true } }]]} />
      {sessions.length === 0 ? (
        <EmptyPicker onPick={onPick} />
      ) : (
        <SelectList items={items} width={width} rows={rows} onSelect={(i) => onPick(sessions[i]!.sessionId)} onCancel={() => onPick(undefined)} />
      )}
    </Box>
  );
}
