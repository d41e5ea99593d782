import type { Envelope, SummaryRequest, TurnFloor, WindowEntry, WindowView } from '@nodwyn/plugin-api';

/** The newest steps (a call and its results, or an answer) that stay verbatim whatever the window's size. */
export const KEEP_STEPS = 4;

/** Summaries one compaction makes at most before the call goes on with the window as it is. */
const MAX_SUMMARIES = 4;

/** A run of whole steps of the window that a summary may replace. */
interface Span {
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly tokens: number;
}

/**
 * The compaction policy: before a model call whose window is over its budget (the window budget less room
 * for the answer), the oldest steps of the session are summarised (`floor.summarize`), until the window fits
 * half its budget again. Never summarised: user messages (so the first and the latest ask), nodwyn's notes
 * (an approved plan), and the newest `KEEP_STEPS` steps (fewer when they take more than half the budget,
 * only the newest one when those alone are over it). A summary that fails is logged by the floor
 * (`summary.failed`) and the call goes on with the plain newest-first window. `force` (`/compact`) summarises even when the window fits. When nothing needs
 * compacting this is one `windowView()` and a comparison.
 */
export async function compact(floor: TurnFloor, options: { force?: boolean; focus?: string } = {}): Promise<CompactionResult> {
  let force = options.force === true;
  const before = floor.windowView().tokens;
  let summaries = 0;
  let failure: Envelope | undefined;
  for (let made = 0; made < MAX_SUMMARIES; made++) {
    const view = floor.windowView();
    if (!force && view.tokens <= view.budget) break;
    const needed = force ? 0 : view.tokens - Math.floor(view.budget / 2);
    // The newest steps stay verbatim unless they alone outgrow the budget: then all but the last may go.
    const span = pickSpan(view, floor.session, needed) ?? (force ? undefined : pickSpan(view, floor.session, needed, 1));
    if (!span) break;
    const request: SummaryRequest = { fromSeq: span.fromSeq, toSeq: span.toSeq, ...(options.focus ? { focus: options.focus } : {}) };
    const outcome = await floor.summarize(request);
    if (!outcome.ok) {
      failure = outcome.envelope;
      break;
    }
    summaries++;
    force = false;
  }
  return { summaries, tokensBefore: before, tokensAfter: summaries > 0 ? floor.windowView().tokens : before, ...(failure ? { failure } : {}) };
}

/** What one compaction did: the summaries it logged, and the window's estimated tokens before and after. */
export interface CompactionResult {
  readonly summaries: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Why the last summary was not made (already logged as `summary.failed`). */
  readonly failure?: Envelope;
}

/**
 * The oldest run of whole steps of `session` before the protected tail that holds a step not yet
 * summarised, grown step by step until it frees `needed` tokens (the whole run when `needed` is 0) or
 * would outgrow what one summary request may quote. A run ends at any entry that is not a step: a user
 * message, a note (an approved plan), the pinned first ask.
 */
export function pickSpan(view: WindowView, session: string, needed: number, keep?: number): Span | undefined {
  const steps = stepsOf(view.entries, session);
  const limit = Math.floor(view.budget * 0.6);
  let span: (Span & { raw: boolean }) | undefined;
  for (let i = 0; i < steps.length - (keep ?? keptSteps(steps, view.budget)); i++) {
    const step = steps[i]!;
    const continues = span !== undefined && step.after === steps[i - 1]!.index;
    if (span && continues && span.tokens + step.tokens > limit) break;
    if (span && !continues) {
      if (span.raw) break;
      span = undefined;
    }
    span = span
      ? { fromSeq: span.fromSeq, toSeq: step.toSeq, tokens: span.tokens + step.tokens, raw: span.raw || !step.summary }
      : { fromSeq: step.fromSeq, toSeq: step.toSeq, tokens: step.tokens, raw: !step.summary };
    if (needed > 0 && span.raw && span.tokens >= needed) break;
  }
  return span?.raw ? { fromSeq: span.fromSeq, toSeq: span.toSeq, tokens: span.tokens } : undefined;
}

/**
 * How many of the newest steps stay verbatim: `KEEP_STEPS`, fewer when they would take more than half the
 * budget (a summary would then free too little and come again at the next call), and at least one.
 */
function keptSteps(steps: readonly Step[], budget: number): number {
  let kept = 0;
  let tokens = 0;
  for (let i = steps.length - 1; i >= 0 && kept < KEEP_STEPS; i--) {
    tokens += steps[i]!.tokens;
    if (kept > 0 && tokens > budget / 2) break;
    kept++;
  }
  return kept;
}

interface Step {
  /** Index of the step's last entry, and of the entry before its first. */
  readonly index: number;
  readonly after: number;
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly tokens: number;
  readonly summary: boolean;
}

// A step: an assistant message with the results that follow it, or an older summary.
function stepsOf(entries: readonly WindowEntry[], session: string): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < entries.length; i++) {
    const first = entries[i]!;
    if (first.session !== session || (first.kind !== 'assistant' && first.kind !== 'summary')) continue;
    let end = i;
    let tokens = first.tokens;
    while (first.kind === 'assistant' && entries[end + 1]?.kind === 'tool') tokens += entries[++end]!.tokens;
    steps.push({ index: end, after: i - 1, fromSeq: first.fromSeq, toSeq: entries[end]!.toSeq, tokens, summary: first.kind === 'summary' });
    i = end;
  }
  return steps;
}
