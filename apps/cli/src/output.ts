import type { Envelope } from '@nodwyn/protocol';
import { forTerminal } from './terminal-text.js';

/**
 * One envelope for a person: the category and code, then what to do, then the details that help. Its fields
 * can quote a file or the model, so control characters are shown, not obeyed.
 */
export function formatEnvelope(env: Envelope): string {
  const head = `error ${env.category}${env.code ? ` ${env.code}` : ''}${env.operation ? ` (${env.operation})` : ''}${env.plugin ? ` [${env.plugin}]` : ''}`;
  const lines = [head, `  ${env.remediation}`];
  if (env.failed_parameter) lines.push(`  parameter: ${env.failed_parameter}`);
  if (env.expected) lines.push(`  expected:  ${env.expected}`);
  if (env.received_value !== null) lines.push(`  received:  ${env.received_value}`);
  return `${forTerminal(lines.join('\n'))}\n`;
}

/** Prints rows as aligned columns, each cell with its control characters shown, not obeyed. */
export function formatTable(headers: readonly string[], raw: readonly (readonly string[])[]): string {
  const rows = raw.map((row) => row.map(forTerminal));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}
