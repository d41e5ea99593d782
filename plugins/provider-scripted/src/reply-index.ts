import type { ModelMessage } from '@nodwyn/plugin-api';

/**
 * Which reply a request asks for: the number of assistant messages after the most recent user message
 * (nodwyn's own notes, such as a plan request, do not count as one: the run is still answering the ask).
 *
 * The index comes from the request, never from a counter, so a restarted process (or a resumed session)
 * continues where the log says the run is. Each new prompt starts at reply 0 again, which is why one
 * script describes one prompt's run: a second `nodwyn run` on the same session replays it from the top.
 */
export function replyIndex(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user' && message.note !== true) break;
    if (message.role === 'assistant') count++;
  }
  return count;
}
