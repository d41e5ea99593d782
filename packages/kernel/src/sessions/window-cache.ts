import type { LogEvent } from '@nodwyn/protocol';
import type { EventLog } from '../log/index.js';
import { SessionWindow, type WindowBudget } from './session-window.js';

/** Sessions whose windows stay in memory between turns (a daemon's live sessions); the oldest used goes first. */
const KEPT = 16;

/**
 * The windows of recently used sessions, kept in step with the log between turns, so a warm daemon's next
 * prompt starts from the window it already has instead of reading the log again. Events this process
 * appends arrive through `push`; those another process appended (a `nodwyn run` beside the daemon) are
 * read from the window's head when the window is next asked for.
 */
export class WindowCache {
  readonly #windows = new Map<string, { window: SessionWindow; budget: WindowBudget }>();

  constructor(private readonly log: EventLog) {}

  /** The session's window for `budget`, built from the log's end if it is not kept (or was kept for another budget). */
  get(session: string, budget: WindowBudget): SessionWindow {
    const kept = this.#windows.get(session);
    this.#windows.delete(session);
    let window: SessionWindow;
    if (kept && kept.budget.windowTokens === budget.windowTokens && kept.budget.answerTokens === budget.answerTokens) {
      window = kept.window;
      for (const event of this.log.read(session, window.head + 1)) window.push(event);
    } else window = SessionWindow.open(this.log, session, budget);
    this.#windows.set(session, { window, budget });
    if (this.#windows.size > KEPT) this.#windows.delete(this.#windows.keys().next().value!);
    return window;
  }

  /** Extends a kept window with an event its session just got. */
  push(event: LogEvent): void {
    this.#windows.get(event.session)?.window.push(event);
  }
}
