import type { Envelope } from '@nodwyn/plugin-api';
import { nodeEnvelope } from './errors.js';

/** The envelopes a run can end with that do not come from a door; each says what to change. */
export const endings = {
  timeout: (ms: number): Envelope =>
    nodeEnvelope('SANDBOX_TIMEOUT', {
      retryable: 'after_remediation',
      remediation: `The run did not finish within ${ms} ms and its process was killed; make the code do less or end sooner, or raise the capability's timeout. Files written and requests sent before stay.`,
    }),
  cancelled: (): Envelope =>
    nodeEnvelope('SANDBOX_CANCELLED', { remediation: 'The run was cancelled and its process killed. Files written and requests sent before the cancel stay.' }),
  logsCapped: (cap: number): Envelope =>
    nodeEnvelope('SANDBOX_OUTPUT_CAP', {
      expected: `at most ${cap} bytes of logs and result`,
      remediation: `The run's output (nodwyn.log and console) passed the output cap of ${cap} bytes, so it was stopped; log less, or write bulk data with nodwyn.writeFile.`,
    }),
  resultCapped: (bytes: number, room: number): Envelope =>
    nodeEnvelope('SANDBOX_OUTPUT_CAP', {
      expected: `at most ${room} bytes`,
      received_value: `${bytes} bytes`,
      remediation: `The result is ${bytes} bytes of JSON, more than the ${room} bytes the output cap leaves after the logs; return a summary, or write the data with nodwyn.writeFile and return its path.`,
    }),
  messageCapped: (max: number): Envelope =>
    nodeEnvelope('SANDBOX_OUTPUT_CAP', { remediation: `A single message from the code (a door call or the result) passed ${max} bytes, so the run was stopped; pass smaller pieces.` }),
  heapExhausted: (memoryMb: number): Envelope =>
    nodeEnvelope('SANDBOX_MEMORY', {
      expected: `at most ${memoryMb} MiB of JavaScript heap`,
      remediation: `The code ran out of its ${memoryMb} MiB heap and its process ended; work on the data in smaller pieces, or raise the capability's memoryMb.`,
    }),
  residentExceeded: (rssMb: number, limitMb: number): Envelope =>
    nodeEnvelope('SANDBOX_MEMORY', {
      expected: `at most ${limitMb} MiB resident`,
      received_value: `${rssMb} MiB`,
      remediation: `The process grew to ${rssMb} MiB of memory (Buffers and ArrayBuffers count too), past the run's ${limitMb} MiB, and was killed; allocate less, or raise the capability's memoryMb.`,
    }),
  doorFlood: (max: number): Envelope =>
    nodeEnvelope('SANDBOX_DOOR_FLOOD', { remediation: `The code had more than ${max} door calls waiting at once; await each nodwyn call, or a few at a time.` }),
  corrupt: (): Envelope =>
    nodeEnvelope('SANDBOX_CHANNEL_CORRUPT', { remediation: "A message on the runner's channel (file descriptor 3) was not the runner's protocol; do not write to file descriptor 3." }),
  resultInvalid: (reason: string): Envelope => {
    const why = reason.split('\n')[0] ?? reason;
    return nodeEnvelope('SANDBOX_RESULT_NOT_JSON', {
      expected: 'a JSON-serialisable value',
      received_value: why,
      remediation: `The function's value cannot be sent back as JSON (${why}); return plain data: strings, numbers, booleans, null, arrays and objects of them.`,
    });
  },
  exited: (code: number | null, signal: string | null): Envelope =>
    nodeEnvelope('SANDBOX_CODE_EXITED', {
      received_value: signal ?? `exit code ${code}`,
      remediation: `The process ended (${signal ?? `exit code ${code}`}) before the function returned; return a value instead of calling process.exit, and see the logs for a crash.`,
    }),
  spawnFailed: (message: string): Envelope =>
    nodeEnvelope('SANDBOX_SPAWN_FAILED', { remediation: `The Node child process could not be started (${message}); check that ${process.execPath} runs and the temp folder is writable.` }),
};

/** What the harness reports about a thrown error. */
export interface ThrownReport {
  readonly phase?: unknown;
  readonly m?: unknown;
  readonly n?: unknown;
  readonly c?: unknown;
  readonly p?: unknown;
  readonly r?: unknown;
  readonly at?: unknown;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The envelope for an error the code threw: Node's permission model refusing an API, a module that does
 * not load or has no default function, or any other throw, with its message and line so the model can fix it.
 */
export function thrownEnvelope(report: ThrownReport): Envelope {
  const where = text(report.at) ? ` (at ${text(report.at)} of the code)` : '';
  const what = `${text(report.n) ? `${text(report.n)}: ` : ''}${text(report.m)}${where}`;
  // The code can throw such an error itself; then it only mislabels its own failure.
  if (report.c === 'ERR_ACCESS_DENIED') {
    const denied = text(report.p) && text(report.r) ? `${text(report.p)} (${text(report.r)})` : text(report.p) || text(report.r);
    return nodeEnvelope('SANDBOX_ACCESS_DENIED', {
      received_value: denied || what,
      remediation: `Node's permission model refused ${denied || 'an API'}${where}. In this runner code reaches files only through nodwyn.readFile and nodwyn.writeFile, and has no child processes, workers, addons, inspector, WASI or signals; use the nodwyn door instead.`,
    });
  }
  if (report.phase === 'shape') {
    return nodeEnvelope('SANDBOX_NO_DEFAULT_EXPORT', {
      expected: 'an ES module whose default export is a function (args, nodwyn) => value',
      remediation: `${text(report.m)}; export the function as the module's default: export default (args, nodwyn) => value.`,
    });
  }
  if (report.phase === 'load') {
    return nodeEnvelope('SANDBOX_CODE_INVALID', {
      expected: 'an ES module whose default export is a function (args, nodwyn) => value',
      remediation: `The code did not load as an ES module: ${what}. Fix it and run it again (only node: built-in modules can be imported).`,
    });
  }
  return nodeEnvelope('SANDBOX_CODE_THREW', { remediation: `The code threw ${what}. Fix the code (or the args) and run it again.` });
}
