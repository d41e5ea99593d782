import type { Envelope } from '@nodwyn/protocol';

/** How a notice reads: plain, muted, a warning or an error. */
export type Tone = 'info' | 'dim' | 'warn' | 'error';

/** The part of an envelope the TUI shows: its code and what to do. */
export type ShownEnvelope = Pick<Envelope, 'code' | 'remediation'> & Partial<Pick<Envelope, 'category'>>;

/** What a finished tool call produced: its text, the diff of an edit, or its envelope. */
export interface ToolOutcome {
  readonly text?: string;
  readonly diff?: { readonly path: string; readonly oldText?: string; readonly newText: string };
  readonly envelope?: ShownEnvelope;
}

/** How a tool call ended. `interrupted`: its turn ended (cancel, a crash) before it had a result. */
export type ToolEnd = 'completed' | 'failed' | 'denied' | 'interrupted';

/** A plan's verdict, as the judge or the person gave it. */
export interface PlanVerdict {
  readonly approved: boolean;
  readonly by?: string;
  readonly round?: number;
  readonly score?: number;
  readonly feedback?: string;
}

/** What every finished item has: its id, and the seq of the log event it stands for (when one does). */
interface ItemBase {
  readonly id: number;
  readonly seq?: number;
}

/**
 * One finished thing on screen, printed once into the terminal's scrollback (ink's `<Static>`) and never
 * drawn again. Everything here comes from the log, so a continued session looks as it did live.
 */
export type FinishedItem = ItemBase &
  (
    | { readonly kind: 'session'; readonly sessionId: string; readonly title?: string }
    | { readonly kind: 'notice'; readonly text: string; readonly tone: Tone }
    | { readonly kind: 'user'; readonly text: string }
    | { readonly kind: 'assistant'; readonly text: string; readonly thinking: readonly string[]; readonly partial?: boolean }
    | { readonly kind: 'tool'; readonly title: string; readonly end: ToolEnd; readonly outcome: ToolOutcome; readonly seconds?: number }
    | { readonly kind: 'plan'; readonly entries: readonly string[]; readonly verdict: PlanVerdict }
    | { readonly kind: 'turn'; readonly reason: string; readonly envelope?: ShownEnvelope }
  );

/** A finished item before it is given its id. */
export type NewItem = FinishedItem extends infer T ? (T extends FinishedItem ? Omit<T, 'id'> : never) : never;
