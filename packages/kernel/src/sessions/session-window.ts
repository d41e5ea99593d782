import type { ModelMessage, WindowEntry, WindowView } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import type { EventLog } from '../log/index.js';
import { estimateTokens, fitStart } from './window.js';
import { CUT_EVENTS, messageTokens, summaryMessage, WindowScanner } from './window-scanner.js';
import { activeSummaries, BackwardReader, lineageLinks, SUMMARY_EVENTS, type LineageLink, type WindowPiece } from './window-source.js';

/** Events read from the end at a time. */
const PAGE = 256;

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

  /** The newest seq of the session the window has seen. */
  get head(): number {
    return this.#head;
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
    // Tokens of everything read, and of everything from the oldest cut point read: an estimate per event
    // decides when to stop reading, the scan of what was read then checks it.
    let read = 0;
    let fromCut = -1;
    for (;;) {
      const older = reader.next(PAGE);
      if (!older) break;
      for (let i = older.length - 1; i >= 0; i--) {
        read += pieceTokens(older[i]!);
        if (isCut(older[i]!)) fromCut = read;
      }
      pieces = [...older, ...pieces];
      if (fromCut <= this.budget.windowTokens) continue;
      const cut = pieces.findIndex(isCut);
      if (tokensFrom(pieces, cut) > this.budget.windowTokens) {
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

// The tokens a piece adds to the window, without the scan: what `WindowScanner` would make of it.
function pieceTokens(piece: WindowPiece): number {
  if ('summary' in piece) return messageTokens(summaryMessage(piece.summary));
  const { type, payload: p } = piece.event;
  if (type === 'message.user') return estimateTokens(String(p.text ?? ''));
  if (type === 'message.assistant') return estimateTokens(String(p.text ?? '')) + estimateTokens(JSON.stringify(p.tool_calls ?? []));
  if (type.startsWith('tool.') && p.origin !== 'host' && p.call_id !== undefined) return estimateTokens(type === 'tool.completed' ? String(p.content ?? '') : JSON.stringify(p.envelope));
  return CUT_EVENTS.has(type) ? 40 : 0;
}

function tokensFrom(pieces: readonly WindowPiece[], start: number): number {
  const scanner = scan(pieces, start);
  return [...scanner.entries, ...scanner.pending()].reduce((sum, e) => sum + e.tokens, 0);
}
