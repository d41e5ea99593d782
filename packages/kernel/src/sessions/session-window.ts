import type { ModelMessage, WindowEntry, WindowView } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import type { EventLog } from '../log/index.js';
import { fitStart } from './window.js';
import { CUT_EVENTS, messageTokens, WindowScanner } from './window-scanner.js';
import { activeSummaries, BackwardReader, lineageLinks, SUMMARY_EVENTS, type LineageLink, type WindowPiece } from './window-source.js';

/** The first page read from the end; each further page doubles, so re-scanning costs O(window) in all. */
const FIRST_PAGE = 64;

/** The window's sizes: the budget it is cut to, and what it should fit for the answer to have room. */
export interface WindowBudget {
  readonly windowTokens: number;
  readonly answerTokens: number;
}

/** The budget a compaction policy aims under: the window budget less the answer's share (at most a quarter). */
export function compactionBudget(budget: WindowBudget): number {
  return budget.windowTokens - Math.min(budget.answerTokens, Math.floor(budget.windowTokens / 4));
}

/**
 * A session's window, built from the end of its lineage backwards (docs/architecture.md §5): pages of
 * events are read from the head (a summarised span stands as its summary, unread) until the messages
 * from the oldest user message read no longer fit, so the cost is the window's, not the history's. Then
 * it is kept in step with the session by `push`: a turn extends it with each event it appends instead of
 * reading the log again. A summary added or revoked makes the next view rebuild from the log.
 */
export class SessionWindow {
  #scanner = new WindowScanner();
  #pinned: WindowEntry | undefined;
  #head = 0;
  #stale = false;

  private constructor(private readonly log: EventLog, readonly session: string, private readonly budget: WindowBudget) {
    this.#build();
  }

  /** Builds the window of `session` from its log. */
  static open(log: EventLog, session: string, budget: WindowBudget): SessionWindow {
    return new SessionWindow(log, session, budget);
  }

  /** Extends the window with an event the session just got (other sessions' events, and old ones, are ignored). */
  push(event: LogEvent): void {
    if (event.session !== this.session || event.seq <= this.#head) return;
    this.#head = event.seq;
    if ((SUMMARY_EVENTS as readonly string[]).includes(event.type)) this.#stale = true;
    else if (!this.#stale) this.#scanner.push(event);
  }

  /** The window for the next model call: the newest entries that fit, the first ask pinned before them. */
  view(): WindowView {
    if (this.#stale) this.#build();
    const entries = this.#scanner.entries;
    const start = fitStart(entries, this.budget.windowTokens);
    // What was cut stays cut until a summary changes the window: the turn only appends after it.
    if (start > 0) entries.splice(0, start);
    const pinned = this.#pinned && !entries.some((e) => e.kind === 'user' && e.session === this.#pinned!.session && e.fromSeq === this.#pinned!.fromSeq) ? [this.#pinned] : [];
    const all = [...pinned, ...entries, ...this.#scanner.pending()];
    return { entries: all, tokens: all.reduce((sum, e) => sum + e.tokens, 0), budget: compactionBudget(this.budget) };
  }

  /** The messages of `view()`. */
  messages(): ModelMessage[] {
    return this.view().entries.map((e) => e.message);
  }

  #build(): void {
    const links = lineageLinks(this.log, this.session);
    this.#head = links[0]?.upTo ?? 0;
    const reader = new BackwardReader(this.log, links, activeSummaries(this.log, links));
    let pieces: WindowPiece[] = [];
    let start = 0;
    for (let size = FIRST_PAGE; ; size *= 2) {
      const older = reader.next(size);
      if (!older) break;
      pieces = [...older, ...pieces];
      const cut = pieces.findIndex(isCut);
      if (cut >= 0 && tokensFrom(pieces, cut) > this.budget.windowTokens) {
        start = cut;
        break;
      }
    }
    this.#scanner = scan(pieces, start);
    this.#scanner.entries.splice(0, fitStart(this.#scanner.entries, this.budget.windowTokens));
    this.#pinned = this.#firstAsk(links);
    this.#stale = false;
  }

  #firstAsk(links: readonly LineageLink[]): WindowEntry | undefined {
    for (let i = links.length - 1; i >= 0; i--) {
      const { session, upTo } = links[i]!;
      const seq = this.log.firstSeqOf(session, 'message.user');
      if (seq === undefined || seq > upTo) continue;
      const event = this.log.read(session, seq, seq)[0];
      if (!event) continue;
      const message: ModelMessage = { role: 'user', text: String(event.payload.text ?? '') };
      return { message, kind: 'pinned', session, fromSeq: seq, toSeq: seq, tokens: messageTokens(message) };
    }
    return undefined;
  }
}

function isCut(piece: WindowPiece): boolean {
  return 'summary' in piece || CUT_EVENTS.has(piece.event.type);
}

function scan(pieces: readonly WindowPiece[], start: number): WindowScanner {
  const scanner = new WindowScanner();
  for (let i = start; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if ('summary' in piece) scanner.summary(piece.summary);
    else scanner.push(piece.event);
  }
  return scanner;
}

function tokensFrom(pieces: readonly WindowPiece[], start: number): number {
  const scanner = scan(pieces, start);
  return [...scanner.entries, ...scanner.pending()].reduce((sum, e) => sum + e.tokens, 0);
}
