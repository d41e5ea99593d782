import type { AgentCommand } from '@nodwyn/plugin-api';

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

/** `/compact [focus]`: summarise the older part of the window at the start of the next turn. */
export function compactCommand(asks: CompactionAsks, logAsk: (session: string, focus: string) => void): AgentCommand {
  return {
    name: 'compact',
    description: 'Summarise the older part of this session\'s window at the start of the next prompt (the log keeps every event).',
    hint: 'what the summary should keep',
    async run({ session, input }) {
      asks.ask(session, input);
      logAsk(session, input);
      return `The next prompt starts by summarising the older part of the window${input ? `, keeping above all: ${input}` : ''}. The log keeps every event; \`nodwyn log rebuild-window ${session}\` shows the window.`;
    },
  };
}
