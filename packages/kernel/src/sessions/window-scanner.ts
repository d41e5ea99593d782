import type { ModelMessage, ThinkingBlock, WindowEntry } from '@nodwyn/plugin-api';
import type { LogEvent, ToolCall } from '@nodwyn/protocol';
import { estimateTokens, interruptedEnvelope, PLAN_NOTES } from './window-notes.js';

/** A logged summary that replaces the events `fromSeq`..`toSeq` of `session` in the window. */
export interface ActiveSummary {
  readonly session: string;
  /** The seq of its `summary.added` event. */
  readonly seq: number;
  readonly fromSeq: number;
  readonly toSeq: number;
  readonly text: string;
}

/** The window events that stand for the person or nodwyn: the window may begin at any of them. */
export const CUT_EVENTS: ReadonlySet<string> = new Set(['message.user', ...Object.keys(PLAN_NOTES)]);

/** Estimated tokens of one message. */
export function messageTokens(message: ModelMessage): number {
  if (message.role === 'assistant') return estimateTokens(message.text) + estimateTokens(JSON.stringify(message.toolCalls));
  return estimateTokens(message.text);
}

/** How a summary reads to the model: earlier work, told by nodwyn, with the seqs `recall` can fetch. */
export function summaryMessage(summary: ActiveSummary): ModelMessage {
  return {
    role: 'user',
    note: true,
    text: `[nodwyn] Summary of earlier work in this session (events ${summary.fromSeq}–${summary.toSeq}, replaced in this window; the log keeps them):\n${summary.text}`,
  };
}

interface OpenCall {
  readonly call: ToolCall;
  readonly session: string;
  readonly seq: number;
}

/**
 * Turns events into window entries one at a time, so a window can be built once and then extended with
 * each event a turn appends. Only outcomes of the model's own calls become entries (host calls made by
 * primitives do not), and a call left without an outcome gets an `OUTCOME_UNKNOWN` result when the next
 * message starts, so every call the model made has exactly one answer, right after the call.
 */
export class WindowScanner {
  readonly entries: WindowEntry[] = [];
  readonly interrupted: ToolCall[] = [];
  #open = new Map<string, OpenCall>();

  /** Adds one event (in seq order); events that are not messages are skipped. */
  push(event: LogEvent): void {
    const p = event.payload as Record<string, unknown>;
    if (event.type === 'message.user') {
      this.close();
      this.#add(event, 'user', { role: 'user', text: String(p.text ?? '') });
    } else if (event.type === 'message.assistant') {
      this.close();
      const toolCalls = (p.tool_calls as ToolCall[] | undefined) ?? [];
      const thinking = Array.isArray(p.thinking) ? (p.thinking as ThinkingBlock[]) : [];
      this.#add(event, 'assistant', { role: 'assistant', text: String(p.text ?? ''), toolCalls, ...(thinking.length > 0 ? { thinking } : {}) });
      this.#open = new Map(toolCalls.map((call) => [call.id, { call, session: event.session, seq: event.seq }]));
    } else if (event.type in PLAN_NOTES) {
      this.close();
      this.#add(event, 'note', { role: 'user', text: PLAN_NOTES[event.type]!(p), note: true });
    } else if (event.type.startsWith('tool.') && p.origin !== 'host' && this.#open.has(String(p.call_id))) {
      const { call } = this.#open.get(String(p.call_id))!;
      this.#open.delete(call.id);
      const isError = event.type !== 'tool.completed';
      const text = isError ? JSON.stringify(p.envelope) : String(p.content ?? '');
      this.#add(event, 'tool', { role: 'tool', callId: call.id, name: call.name, text, isError });
    }
  }

  /** Adds a summary in place of the span it covers. */
  summary(summary: ActiveSummary): void {
    this.close();
    const message = summaryMessage(summary);
    this.entries.push({ message, kind: 'summary', session: summary.session, fromSeq: summary.fromSeq, toSeq: summary.toSeq, tokens: messageTokens(message) });
  }

  /** Answers every open call as interrupted: the next message started, or the events ended, without its outcome. */
  close(): void {
    this.entries.push(...this.pending());
    for (const { call } of this.#open.values()) this.interrupted.push(call);
    this.#open = new Map();
  }

  /** The interrupted results the open calls would get now, without closing them (a turn may still answer them). */
  pending(): WindowEntry[] {
    return [...this.#open.values()].map(({ call, session, seq }) => {
      const message: ModelMessage = { role: 'tool', callId: call.id, name: call.name, text: JSON.stringify(interruptedEnvelope(call)), isError: true };
      return { message, kind: 'tool', session, fromSeq: seq, toSeq: seq, tokens: messageTokens(message) };
    });
  }

  #add(event: LogEvent, kind: WindowEntry['kind'], message: ModelMessage): void {
    this.entries.push({ message, kind, session: event.session, fromSeq: event.seq, toSeq: event.seq, tokens: messageTokens(message) });
  }
}
