import { EnvelopeError } from '@nodwyn/plugin-api';
import { LogCodes } from './errors.js';
import type { LogKeySource } from './key.js';
import type { ListenerErrorHandler } from './listeners.js';

/** How to open a log. */
export interface EventLogOptions extends LogKeySource {
  /** The database file, or `':memory:'`. */
  readonly path: string;
  /** Source of event timestamps; tests pin it. */
  readonly clock?: () => Date;
  /** Told when a subscriber throws; by default the 1st, 10th, 100th, … error goes to `console.error`. */
  readonly onListenerError?: ListenerErrorHandler;
  /** How long to wait for another process's write lock before `LOG_BUSY` (default 5000 ms). */
  readonly busyTimeoutMs?: number;
}

/** Checks the options `EventLog.open` cannot repair; the key is checked by `loadLogKey`. */
export function checkOptions(options: EventLogOptions): void {
  if (typeof options?.path !== 'string' || options.path.length === 0) {
    invalid('path', "Pass the log's file path, or ':memory:'.");
  }
  const timeout = options.busyTimeoutMs;
  if (timeout !== undefined && (!Number.isSafeInteger(timeout) || timeout < 0 || timeout > 0x7fffffff)) {
    invalid('busyTimeoutMs', 'Pass busyTimeoutMs as a whole number of milliseconds (0 to 2147483647), or leave it out.');
  }
}

function invalid(parameter: string, remediation: string): never {
  throw new EnvelopeError({ category: 'VALIDATION_FAILED', code: LogCodes.LOG_OPTIONS_INVALID, operation: 'log.open', failed_parameter: parameter, remediation });
}
