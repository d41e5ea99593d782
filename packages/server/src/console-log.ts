import { KERNEL_STREAM, type EventLog } from '@nodwyn/kernel';
import type { LogEvent, LogVerifyResult } from '@nodwyn/protocol';
import { serverErrors } from './errors.js';

/** Events `_nodwyn/log/events` answers when the client names no limit. */
export const LOG_PAGE = 200;

/** A page of `_nodwyn/log/events`. */
export interface LogPageRequest {
  readonly sessionId: string;
  readonly beforeSeq?: number;
  readonly afterSeq?: number;
  readonly limit?: number;
}

/**
 * `_nodwyn/log/events`: at most `limit` events of a session, oldest first: those right before `beforeSeq`
 * when given, else those after `afterSeq`. A session's seqs have no gaps (docs/architecture.md §3), so a
 * page is one range read on the (session, seq) key: its cost is the page's, on a session of any length.
 */
export function logPage(log: EventLog, request: LogPageRequest): { events: LogEvent[]; head: number } {
  const head = knownHead(log, request.sessionId, 'log/events');
  const limit = request.limit ?? LOG_PAGE;
  if (request.beforeSeq !== undefined) {
    const to = Math.min(request.beforeSeq - 1, head);
    const from = Math.max(1, to - limit + 1);
    return { events: to < 1 ? [] : log.read(request.sessionId, from, to), head };
  }
  const after = request.afterSeq ?? 0;
  return { events: after >= head ? [] : log.read(request.sessionId, after + 1, Math.min(head, after + limit)), head };
}

/**
 * `_nodwyn/log/verify`: the kernel's verdict on one session's hash chain (or the whole log's), as `nodwyn
 * log verify` gives it. Verified first, so a session deleted whole is a failure (the signed index still
 * names it); an id that verifies nothing and was never there is `SESSION_NOT_FOUND`, never "intact".
 */
export function verifyLog(log: EventLog, sessionId?: string): LogVerifyResult {
  const report = log.verify(sessionId);
  if (report.ok && report.sessions === 0 && sessionId !== undefined && sessionId !== KERNEL_STREAM) knownHead(log, sessionId, 'log/verify');
  return report;
}

/** The session's latest seq; `SESSION_NOT_FOUND` for an id the log has no events of (or the kernel's own stream). */
function knownHead(log: EventLog, id: string, operation: string): number {
  const head = id === KERNEL_STREAM ? undefined : log.head(id);
  if (head) return head.seq;
  throw serverErrors.error('SESSION_NOT_FOUND', {
    operation,
    failed_parameter: '$.sessionId',
    received_value: id,
    remediation: 'No session has that id; list them with _nodwyn/sessions/list (or `nodwyn log list`).',
  });
}
