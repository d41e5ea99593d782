import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

/** One server-sent event (WHATWG HTML §9.2), as the runtime delivers it. */
export interface SseEvent {
  /** Event type; 'message' when the event had no `event:` field. */
  readonly event: string;
  readonly data: string;
  /** The last event id seen so far in this stream (persists across events until changed), '' if none. */
  readonly lastEventId: string;
  /** Reconnection time from the latest `retry:` field, if any. */
  readonly retry?: number;
}

const COLON = 0x3a;
const SPACE = 0x20;

/**
 * A text/event-stream decoder: the WHATWG rules eventsource-parser leaves to its caller, with the parser
 * underneath for the field grammar (`data` joined with \n, one leading space stripped, `event`, `retry`
 * digits only, unknown fields ignored, an event dispatched only when it has a data line).
 *
 * The decoder splits lines itself (CR, LF, CRLF, also a CRLF split over two chunks) and feeds the parser
 * one LF-terminated line at a time, because two rules need each line as it ends: the per-event byte
 * limit counts the UTF-8 bytes of an event's lines, and the last event id is a buffer that an `id` field
 * sets even in a block that never dispatches, while the parser forgets its id after each block. So `id`
 * lines (and comments, which count nowhere) never reach the parser. UTF-8 is decoded with a streaming
 * TextDecoder, which also drops a leading BOM once, even when it is split over chunks.
 */
export class SseDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private readonly lineEnd = /[\r\n]/g;
  private readonly parser: EventSourceParser;
  private readonly ready: SseEvent[] = [];
  private pending = '';
  private pendingBytes = 0;
  private afterCr = false;
  private eventBytes = 0;
  private lastEventId = '';
  private retry: number | undefined;
  /** Events dispatched so far. */
  count = 0;
  /** Set when the event being read passed the limit; the decoder then reads nothing more. */
  overflow = false;

  /** The latest `retry:` value of the stream, also one sent in a block that dispatched no event. */
  get reconnectionTime(): number | undefined {
    return this.retry;
  }

  constructor(private readonly maxEventBytes: number) {
    this.parser = createParser({ onEvent: (message) => this.dispatch(message), onRetry: (ms) => (this.retry = ms) });
    // The parser drops a first chunk's leading UTF-16 units 0xEF 0xBB 0xBF (the BOM's bytes, as only a
    // Latin-1 decoding would give them, i.e. the text "ï»¿"). The TextDecoder already dropped the real
    // BOM; an empty first feed disarms the parser's check so text starting with "ï»¿" stays whole.
    this.parser.feed('');
  }

  /**
   * Decodes one chunk and returns the events it completed. At the end of the body nothing more is fed:
   * an unfinished line and an event without its blank line are discarded, as the spec says.
   */
  push(chunk: Uint8Array): SseEvent[] {
    const text = this.utf8.decode(chunk, { stream: true });
    let start = this.afterCr && text.charCodeAt(0) === 0x0a ? 1 : 0;
    this.afterCr = false;
    this.lineEnd.lastIndex = start;
    for (let match = this.lineEnd.exec(text); match !== null && !this.overflow; match = this.lineEnd.exec(text)) {
      const end = match.index;
      const piece = text.slice(start, end);
      this.line(this.pending + piece, this.pendingBytes + utf8Length(piece));
      this.pending = '';
      this.pendingBytes = 0;
      start = end + 1;
      if (text.charCodeAt(end) === 0x0d) {
        if (start === text.length) this.afterCr = true;
        else if (text.charCodeAt(start) === 0x0a) start += 1;
      }
      this.lineEnd.lastIndex = start;
    }
    if (!this.overflow && start < text.length) {
      const rest = text.slice(start);
      this.pending += rest;
      this.pendingBytes += utf8Length(rest);
      if (this.eventBytes + this.pendingBytes > this.maxEventBytes) this.overflow = true;
    }
    return this.ready.splice(0);
  }

  private line(text: string, bytes: number): void {
    if (text === '') {
      this.eventBytes = 0;
      this.parser.feed('\n');
      return;
    }
    if (text.charCodeAt(0) === COLON) return;
    this.eventBytes += bytes + 1;
    if (this.eventBytes > this.maxEventBytes) {
      this.overflow = true;
      return;
    }
    const id = idValue(text);
    if (id === undefined) this.parser.feed(`${text}\n`);
    else if (!id.includes('\0')) this.lastEventId = id;
  }

  private dispatch(message: EventSourceMessage): void {
    const event = { event: message.event ?? 'message', data: message.data, lastEventId: this.lastEventId };
    this.ready.push(this.retry === undefined ? event : { ...event, retry: this.retry });
    this.count += 1;
  }
}

/** The value of an `id` field line ('' for a bare `id`), or undefined for any other line. */
function idValue(line: string): string | undefined {
  if (line === 'id') return '';
  if (!line.startsWith('id:')) return undefined;
  return line.slice(line.charCodeAt(3) === SPACE ? 4 : 3);
}

const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 length of decoded text (a surrogate pair is 4 bytes; TextDecoder never leaves a lone one). */
function utf8Length(text: string): number {
  // Model streams are nearly all ASCII JSON; a native scan settles those without a loop in JS.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes += unit < 0x80 ? 1 : unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}
