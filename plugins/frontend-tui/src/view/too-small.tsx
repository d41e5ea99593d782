/** @jsxRuntime automatic */
import { Text } from 'ink';

/** The smallest terminal the TUI lays out for. */
export const MIN_COLUMNS = 40;
export const MIN_ROWS = 10;

/** What a terminal too small to lay out shows instead of a broken layout. */
export function TooSmall({ columns, rows }: { readonly columns: number; readonly rows: number }) {
  return <Text wrap="wrap">{`Terminal too small (${columns}×${rows}): nodwyn needs at least ${MIN_COLUMNS}×${MIN_ROWS}. Enlarge it to go on.`}</Text>;
}
