/** @jsxRuntime automatic */
import type { TuiState } from '../state/tui-state.js';
import type { Line } from '../terminal/paint.js';
import { truncate } from '../terminal/text-width.js';
import { LinesRows } from './lines-text.js';

/** A banner while the daemon's connection is not open: reconnecting (with the attempt) or closed. */
export function ConnectionBanner({ connection, width }: { readonly connection: TuiState['connection']; readonly width: number }) {
  if (connection.state === 'open') return null;
  const line: Line =
    connection.state === 'reconnecting'
      ? [{ text: truncate(`⟳ The daemon's connection dropped; reconnecting${connection.attempt ? ` (attempt ${connection.attempt})` : ''}…`, width), style: { fg: 'yellow', bold: true } }]
      : [{ text: truncate(`✗ Disconnected from the daemon${connection.error ? `: ${connection.error}` : ''}`, width), style: { fg: 'red', bold: true } }];
  return <LinesRows lines={[line]} />;
}
