import type { AgentCommand, LoopStrategy } from '@nodwyn/plugin-api';
import { compact, type CompactionResult } from './compaction.js';

/** A `/compact` waiting for its session's next turn, with the focus the person gave. */
export interface CompactionAsk {
  readonly focus?: string;
}

/**
 * The `/compact` requests the loop has not acted on yet, per session. An agent command runs between turns,
 * where there is no turn floor to summarise with, so the next turn of the session compacts first.
 */
export class CompactionAsks {
  readonly #asks = new Map<string, CompactionAsk>();

  ask(session: string, focus: string): void {
    this.#asks.set(session, focus ? { focus } : {});
  }

  /** The session's pending ask, now taken. */
  take(session: string): CompactionAsk | undefined {
    const ask = this.#asks.get(session);
    this.#asks.delete(session);
    return ask;
  }
}

/** The turn `/compact` runs: compaction alone, forced, with the person's focus; its answer says what it did. */
function compactionTurn(focus: string): LoopStrategy {
  return {
    id: 'compact',
    description: 'Summarises the older steps of the window now (/compact).',
    async run(floor) {
      const done = await compact(floor, { force: true, ...(focus ? { focus } : {}) });
      return { answer: compactionReport(done, floor.session) };
    },
  };
}

function compactionReport(done: CompactionResult, session: string): string {
  const where = `The log keeps every event; \`nodwyn log rebuild-window ${session}\` shows the window.`;
  if (done.failure) return `The summary could not be made (${done.failure.code ?? done.failure.category}): ${done.failure.remediation} The window stays as it was. ${where}`;
  if (done.summaries === 0) return `Nothing to summarise yet: the window holds only the asks and the newest steps, which stay as they are. ${where}`;
  return `Summarised the older steps (${done.summaries} summar${done.summaries === 1 ? 'y' : 'ies'}): the window went from about ${done.tokensBefore} to ${done.tokensAfter} tokens. ${where}`;
}

/**
 * `/compact [focus]`: summarise the older part of the window now, in a turn of its own, where the agent can
 * run one (the server); elsewhere at the start of the next turn.
 */
export function compactCommand(asks: CompactionAsks, logAsk: (session: string, focus: string) => void): AgentCommand {
  return {
    name: 'compact',
    description: "Summarise the older part of this session's window now (the log keeps every event).",
    hint: 'what the summary should keep',
    async run({ session, input, turn }) {
      logAsk(session, input);
      if (turn) {
        const ended = await turn(compactionTurn(input));
        if (ended.answer !== undefined) return ended.answer;
        return `/compact stopped (${ended.envelope?.code ?? ended.reason})${ended.envelope ? `: ${ended.envelope.remediation}` : ''}`;
      }
      asks.ask(session, input);
      return `The next prompt starts by summarising the older part of the window${input ? `, keeping above all: ${input}` : ''}. The log keeps every event; \`nodwyn log rebuild-window ${session}\` shows the window.`;
    },
  };
}
