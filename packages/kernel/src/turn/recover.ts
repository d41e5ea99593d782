import { envelope, type Envelope } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';
import type { AppendDraft, EventLog } from '../log/index.js';
import { interruptedEnvelope, scanEvents } from '../sessions/window.js';

/** The events that open and close a turn: the newest of them says whether a turn is open. */
export const TURN_EVENTS = ['turn.started', 'turn.ended'] as const;

/** What recovery needs: the log to read the turn from, and the kernel's append (through the log stages). */
export interface RecoverDeps {
  readonly log: EventLog;
  readonly append: (session: string, draft: AppendDraft) => unknown;
}

/** The envelope of a turn whose process stopped before it ended. */
export function turnInterruptedEnvelope(): Envelope {
  return envelope({
    category: 'OUTCOME_UNKNOWN',
    code: KernelCodes.TURN_INTERRUPTED,
    operation: 'turn',
    retryable: 'after_remediation',
    remediation:
      'The process running this turn stopped before it ended. Check the effects of the calls marked interrupted (TOOL_INTERRUPTED), then continue.',
  });
}

/**
 * Closes a turn its process left open (see `Kernel.recover`). Finds the newest turn event with one query
 * from the session's head and reads only from there, so recovering, or finding nothing to recover, costs
 * what the last turn holds, not the session's history. All of it is one transaction: a crash during
 * recovery leaves the turn open for the next try, never half closed.
 */
export function recoverSession(deps: RecoverDeps, session: string): boolean {
  const { log } = deps;
  const last = log.lastSeqOf(session, TURN_EVENTS);
  if (last === undefined) return false;
  const turn = log.read(session, last);
  if (turn[0]?.type !== 'turn.started' || runningElsewhere(turn[0])) return false;
  log.transaction(() => {
    for (const question of unanswered(turn)) {
      deps.append(session, { type: 'confirmation.expired', actor: 'kernel', payload: { call_id: question.call_id, name: question.name } });
    }
    for (const call of scanEvents(turn).interrupted) {
      deps.append(session, { type: 'tool.failed', actor: 'kernel', payload: { call_id: call.id, name: call.name, envelope: interruptedEnvelope(call) } });
    }
    deps.append(session, { type: 'turn.ended', actor: 'kernel', payload: { reason: 'interrupted', envelope: turnInterruptedEnvelope() } });
  });
  return true;
}

/**
 * Whether another process that is still alive runs this turn (`nodwyn run` next to the daemon on one
 * session): its turn is open, not interrupted. A turn without a pid (older logs) or of this process
 * (whose own runs are over when it recovers) counts as stopped.
 */
function runningElsewhere(started: LogEvent): boolean {
  const pid = started.payload.pid;
  if (typeof pid !== 'number' || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The questions of the turn that were asked and never decided (or expired), in the order asked. */
function unanswered(turn: readonly LogEvent[]): { call_id: string; name: string }[] {
  const open = new Map<string, { call_id: string; name: string }>();
  for (const event of turn) {
    const callId = String(event.payload.call_id);
    if (event.type === 'confirmation.requested') open.set(callId, { call_id: callId, name: String(event.payload.name) });
    else if (event.type === 'confirmation.decided' || event.type === 'confirmation.expired') open.delete(callId);
  }
  return [...open.values()];
}
