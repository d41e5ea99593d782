import type { ModelMessage } from '@nodwyn/plugin-api';

/** How much of each tool result a `plan+summaries` line shows. */
const SUMMARY_CHARS = 160;
/** Most tool results summarised; the latest ones count. */
const SUMMARY_LINES = 40;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * `plan+summaries`: one line per tool result in the window (name, ok or failed, its first characters),
 * so the judge knows what the agent already found without reading the results themselves.
 */
export function toolSummaries(window: readonly ModelMessage[]): string {
  const lines = window.flatMap((m) => (m.role === 'tool' ? [`- ${m.name}: ${m.isError ? 'failed' : 'ok'}: ${oneLine(m.text, SUMMARY_CHARS)}`] : []));
  return lines.slice(-SUMMARY_LINES).join('\n') || '(no tool results yet)';
}

/** `full`: the whole window as text, each message under its role, tool calls with their arguments. */
export function windowText(window: readonly ModelMessage[]): string {
  return window
    .map((m) => {
      if (m.role === 'user') return `[user]\n${m.text}`;
      if (m.role === 'tool') return `[tool ${m.name} ${m.isError ? 'failed' : 'ok'}]\n${m.text}`;
      const calls = m.toolCalls.map((c) => `call ${c.name} ${JSON.stringify(c.args)}`);
      return `[assistant]\n${[m.text, ...calls].filter((part) => part.length > 0).join('\n')}`;
    })
    .join('\n\n');
}
