import { envelope, EnvelopeError, type ModelMessage, type SummaryOutcome, type SummaryRequest, type WindowEntry, type WindowView } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { withheldEnvelope } from '../guard/strikes.js';
import type { AppendDraft } from '../log/index.js';
import { KernelCodes } from '../errors.js';
import { estimateTokens } from '../sessions/window.js';
import { messageTokens } from '../sessions/window-scanner.js';
import type { StreamedMessage } from './model-call.js';

/** One summary for the turn floor: the span, and the floor's own model-call path and log. */
export interface SummaryCall {
  readonly session: string;
  /** The window the span is taken from. */
  readonly view: WindowView;
  readonly request: SummaryRequest;
  /** Names the summarising model in `summary.added` (`provider/model`). */
  readonly model: string;
  /** Streams the request as the floor streams the loop's (guarded fetch, retry budget, the turn's signal). */
  readonly stream: (messages: ModelMessage[]) => Promise<StreamedMessage>;
  /** The floor's L2 check: what may be kept of the output (a withheld form when it held a remembered secret). */
  readonly withhold: (arrived: StreamedMessage) => StreamedMessage;
  /** Appends to the session through the log stages (the text layers). */
  readonly append: (draft: AppendDraft) => LogEvent;
}

/**
 * Summarises a span of whole steps and logs the text as `summary.added`, or logs why not as
 * `summary.failed` (the model failed, its output was withheld, or it is empty or no smaller than the span).
 * A span that is not whole steps is a bug of the caller: it throws `SUMMARY_SPAN_INVALID`.
 */
export async function summarizeSpan(call: SummaryCall): Promise<SummaryOutcome> {
  const { fromSeq, toSeq, focus } = call.request;
  const span = spanMessages(call.view.entries, call.session, fromSeq, toSeq);
  const arrived = await call.stream(summaryRequest(span, call.view.budget, focus));
  const streamed = call.withhold(arrived);
  const tokens = spanTokens([{ role: 'user', text: streamed.text }]);
  const failure = streamed.error?.envelope ?? (streamed !== arrived ? withheldEnvelope('summary') : undefined);
  const env = failure ?? (streamed.text.trim() === '' || tokens >= spanTokens(span) ? notSmallerEnvelope(streamed.text, spanTokens(span)) : undefined);
  if (env) {
    call.append({ type: 'summary.failed', actor: 'kernel', payload: { from_seq: fromSeq, to_seq: toSeq, envelope: env } });
    return { ok: false, envelope: env };
  }
  const added = call.append({ type: 'summary.added', actor: 'model', payload: { from_seq: fromSeq, to_seq: toSeq, text: streamed.text, model: call.model, tokens, ...(focus ? { focus } : {}) } });
  return { ok: true, seq: added.seq, tokens };
}

/** What a summary is asked to keep; the span follows as a transcript. */
const SUMMARY_PROMPT =
  'You are summarising part of a coding agent\'s session so that the agent can go on without it. Write a compact summary (plain text, at most a few hundred words) of the work below: what was looked at or changed (file paths, commands, decisions, results, errors), and what is still open. Keep exact names, paths and numbers. Do not call tools.';

/** The longest single message quoted in a summary request; the rest of it is cut with a marker. */
const QUOTE_CHARS = 8_000;

/**
 * The messages of the window that stand for events `fromSeq`..`toSeq` of `session` (an older summary in
 * it as its summary, so a summary of summaries costs what the window shows), checked to be whole steps:
 * every call in it has its result in it, and no message straddles its ends.
 */
export function spanMessages(entries: readonly WindowEntry[], session: string, fromSeq: number, toSeq: number): ModelMessage[] {
  const own = entries.filter((e) => e.kind !== 'pinned' && e.session === session);
  if (own.some((e) => e.fromSeq <= toSeq && e.toSeq >= fromSeq && (e.fromSeq < fromSeq || e.toSeq > toSeq))) {
    throw spanError(session, fromSeq, toSeq, 'a message of the window lies partly outside it');
  }
  const span = own.filter((e) => e.fromSeq >= fromSeq && e.toSeq <= toSeq).map((e) => e.message);
  const calls = new Set(span.flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((c) => c.id) : [])));
  const answered = new Set(span.flatMap((m) => (m.role === 'tool' ? [m.callId] : [])));
  if (span.length === 0) throw spanError(session, fromSeq, toSeq, 'the window holds no message of it');
  for (const id of answered) if (!calls.has(id)) throw spanError(session, fromSeq, toSeq, `the result of call ${id} is in it, its call is not`);
  for (const id of calls) if (!answered.has(id)) throw spanError(session, fromSeq, toSeq, `call ${id} is in it, its result is not`);
  return span;
}

/** The one message a summarising model gets: the instructions, the focus, and the span as a transcript. */
export function summaryRequest(span: readonly ModelMessage[], maxTokens: number, focus?: string): ModelMessage[] {
  const head = `${SUMMARY_PROMPT}${focus ? `\nKeep above all: ${focus}` : ''}\n\n--- transcript ---\n`;
  let room = Math.max(0, maxTokens * 4 - head.length);
  const lines: string[] = [];
  for (const m of span) {
    const line = transcriptLine(m);
    if (line.length > room) {
      lines.push(`${line.slice(0, room)}\n[… the rest of the span is cut]`);
      break;
    }
    lines.push(line);
    room -= line.length + 1;
  }
  return [{ role: 'user', text: head + lines.join('\n') }];
}

function transcriptLine(m: ModelMessage): string {
  const quote = (text: string): string => (text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)} [… ${text.length - QUOTE_CHARS} characters cut]` : text);
  if (m.role === 'assistant') return `assistant: ${quote(m.text)}${m.toolCalls.map((c) => `\n  call ${c.name} ${quote(JSON.stringify(c.args ?? {}))}`).join('')}`;
  if (m.role === 'tool') return `result of ${m.name}${m.isError ? ' (error)' : ''}: ${quote(m.text)}`;
  return `${m.role}: ${quote(m.text)}`;
}

/** The tokens a span's messages take in the window. */
export function spanTokens(span: readonly ModelMessage[]): number {
  return span.reduce((sum, m) => sum + messageTokens(m), 0);
}

/** The envelope of a summary that came back empty or no smaller than its span. */
export function notSmallerEnvelope(text: string, spanTokensCount: number): ReturnType<typeof envelope> {
  return envelope({
    category: 'LIMIT_EXCEEDED',
    code: KernelCodes.SUMMARY_NOT_SMALLER,
    operation: 'summary',
    expected: `a non-empty summary under ${spanTokensCount} tokens`,
    received_value: `${estimateTokens(text)} tokens`,
    retryable: 'after_remediation',
    remediation: 'The window goes on without this summary (older messages are dropped instead). Try a smaller span, or another summary model.',
  });
}

function spanError(session: string, fromSeq: number, toSeq: number, why: string): EnvelopeError {
  return new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: KernelCodes.SUMMARY_SPAN_INVALID,
    failed_parameter: '$.fromSeq',
    received_value: { session, fromSeq, toSeq },
    expected: 'a span of whole steps: every call with its result',
    remediation: `Events ${fromSeq}..${toSeq} of ${session} cannot be summarised: ${why}. This is a bug in the compaction policy.`,
  });
}
