import type { LogReader } from '@nodwyn/plugin-api';

/** The model that is talking in `session` (`provider/model` of its latest answer), or `unknown model`. */
export function authorOf(log: LogReader, session: string): string {
  const events = log.read(session);
  for (let i = events.length - 1; i >= 0; i -= 1) {
    const event = events[i]!;
    if (event.type !== 'message.assistant') continue;
    const { provider, model } = event.payload as { provider?: unknown; model?: unknown };
    return typeof model === 'string' ? `${String(provider)}/${model}` : String(provider);
  }
  return 'unknown model';
}
