import type { FrontendEvent } from '@nodwyn/protocol';
import { forTerminal, jsonText } from '../terminal-text.js';

/** What `nodwyn run` does with the ephemeral events of a run. */
export interface StreamPrinter {
  readonly onEvent: (event: FrontendEvent) => void;
  /** True once text went to stdout as it streamed, so the answer is not printed a second time. */
  streamed(): boolean;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * `--json` prints each delta once, as it arrives, one JSON object per line next to the log events, so the
 * output grows with the answer, never with its square. In a terminal the text streams to stdout; piped, only
 * the final answer is printed (what scripts want). Retries are announced on stderr either way. The text is
 * the model's, which may quote a file: control characters are shown, not obeyed.
 */
export function streamPrinter(json: boolean, terminal: boolean): StreamPrinter {
  let streamed = false;
  return {
    onEvent(event) {
      if (json) {
        if (event.type !== 'log') process.stdout.write(`${jsonText(event)}\n`);
        return;
      }
      if (event.type === 'model.retry') {
        process.stderr.write(`nodwyn: ${forTerminal(event.reason)}; retrying in ${seconds(event.delay_ms)} (attempt ${event.attempt})\n`);
      } else if (event.type === 'delta.text' && terminal) {
        process.stdout.write(forTerminal(event.text));
        streamed = true;
      }
    },
    streamed: () => streamed,
  };
}
