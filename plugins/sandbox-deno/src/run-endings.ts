import type { Envelope } from '@nodwyn/plugin-api';
import { denoEnvelope, type SandboxDenoErrorCode } from './errors.js';

/** Longest text taken from the code's own error message into an envelope. */
const MESSAGE_MAX = 500;

/** The codes a door may report; anything else the harness line claims is treated as a thrown error. */
const DOOR_CODES: ReadonlySet<SandboxDenoErrorCode> = new Set([
  'SANDBOX_GRANT_MISSING',
  'SANDBOX_PATH_OUTSIDE',
  'SANDBOX_PATH_RESERVED',
  'SANDBOX_DOOR_ARGUMENT',
  'SANDBOX_FILE_NOT_FOUND',
  'SANDBOX_HOST_NOT_GRANTED',
  'SANDBOX_FETCH_FAILED',
  'SANDBOX_ACCESS_DENIED',
]);

const AFTER_EFFECTS = 'Files written and requests sent before it stay.';

function clip(text: unknown): string {
  const value = typeof text === 'string' ? text : String(text);
  return value.length > MESSAGE_MAX ? `${value.slice(0, MESSAGE_MAX)}…` : value;
}

/** The envelopes a run can end with that the process itself does not report; each says what to change. */
export const endings = {
  timeout: (ms: number): Envelope =>
    denoEnvelope('SANDBOX_TIMEOUT', {
      retryable: 'after_remediation',
      remediation: `The run did not finish within ${ms} ms and its Deno process was killed; make the code do less or end sooner, or raise the capability's timeout. ${AFTER_EFFECTS}`,
    }),
  cancelled: (): Envelope => denoEnvelope('SANDBOX_CANCELLED', { remediation: `The run was cancelled and its Deno process killed. ${AFTER_EFFECTS}` }),
  outputFlood: (cap: number): Envelope =>
    denoEnvelope('SANDBOX_OUTPUT_CAP', {
      expected: `at most ${cap} bytes of logs and result`,
      remediation: `The process wrote far past the output cap of ${cap} bytes (straight to stdout or stderr), so it was killed; log less with nodwyn.log, or write bulk data with nodwyn.writeFile.`,
    }),
  resultCapped: (bytes: number, cap: number): Envelope =>
    denoEnvelope('SANDBOX_OUTPUT_CAP', {
      expected: `at most ${cap} bytes`,
      received_value: `${bytes} bytes`,
      remediation: `The result is ${bytes} bytes of JSON, more than the output cap of ${cap} bytes; return a summary, or write the data with nodwyn.writeFile and return its path.`,
    }),
  heapExhausted: (memoryMb: number): Envelope =>
    denoEnvelope('SANDBOX_MEMORY', {
      expected: `at most ${memoryMb} MiB of JavaScript heap`,
      remediation: `The code ran out of its ${memoryMb} MiB heap and Deno stopped; work on the data in smaller pieces, or raise the capability's memoryMb.`,
    }),
  residentExceeded: (rssMb: number, limitMb: number): Envelope =>
    denoEnvelope('SANDBOX_MEMORY', {
      expected: `at most ${limitMb} MiB resident`,
      received_value: `${rssMb} MiB`,
      remediation: `The process grew to ${rssMb} MiB of memory (ArrayBuffers count too), past the run's ${limitMb} MiB, and was killed; allocate less, or raise the capability's memoryMb.`,
    }),
  neverSettled: (): Envelope =>
    denoEnvelope('SANDBOX_CODE_EXITED', {
      remediation: 'The function returned a promise that can never settle (nothing was left to wait for); resolve or reject it, or await the work it depends on.',
    }),
  exited: (code: number | null, signal: string | null, said: string): Envelope =>
    denoEnvelope('SANDBOX_CODE_EXITED', {
      received_value: said === '' ? (signal ?? `exit code ${code}`) : said,
      remediation: `The Deno process ended (${signal ?? `exit code ${code}`}) before the function returned${said === '' ? '' : `; Deno said: ${clip(said)}`}. Return a value instead of calling Deno.exit, and use only stable Deno APIs.`,
    }),
  spawnFailed: (message: string): Envelope =>
    denoEnvelope('SANDBOX_SPAWN_FAILED', { remediation: `The Deno process could not be started (${clip(message)}); check that the binary runs and the temp folder is writable.` }),
};

/** The harness's end record, as parsed (its fields are the harness's word, not trusted beyond their shape). */
export type HarnessReport =
  | { readonly ok: true; readonly value: unknown; readonly truncated: boolean; readonly size?: unknown }
  | {
      readonly ok: false;
      readonly kind: string;
      readonly truncated: boolean;
      readonly code?: unknown;
      readonly message?: unknown;
      readonly parameter?: unknown;
      readonly received?: unknown;
      /** For a door failure the host served: which of its envelopes to report. */
      readonly ref?: unknown;
      readonly position?: { readonly line?: unknown; readonly column?: unknown };
      readonly size?: unknown;
    };

function where(position: { readonly line?: unknown; readonly column?: unknown } | undefined): string {
  if (typeof position?.line !== 'number') return '';
  return ` at line ${position.line}${typeof position.column === 'number' ? `, column ${position.column}` : ''}`;
}

/** The envelope for a failure the harness reported. */
export function reportedFailure(report: Extract<HarnessReport, { ok: false }>, cap: number): Envelope {
  const message = clip(report.message ?? 'no message');
  switch (report.kind) {
    case 'door':
      if (DOOR_CODES.has(report.code as SandboxDenoErrorCode)) {
        return denoEnvelope(report.code as SandboxDenoErrorCode, {
          ...(typeof report.parameter === 'string' ? { failed_parameter: report.parameter } : {}),
          ...(report.received === undefined ? {} : { received_value: report.received }),
          remediation: message,
        });
      }
      break;
    case 'denied':
      return denoEnvelope('SANDBOX_ACCESS_DENIED', {
        received_value: message,
        remediation: `Deno's permissions refused it (${message}); the code may reach only the workspace files and hosts it was granted, never processes, the environment or system information. Use the nodwyn door, or register the capability asking for the grant.`,
      });
    case 'load':
      return denoEnvelope('SANDBOX_CODE_INVALID', {
        received_value: message,
        remediation: `The code did not load: ${message}${where(report.position)}. Fix the module (plain JavaScript, no imports from the network or npm) so it loads.`,
      });
    case 'shape':
      return denoEnvelope('SANDBOX_NO_DEFAULT_EXPORT', { remediation: `Export the function as the module's default export (export default (args, nodwyn) => …); ${message}.` });
    case 'not-json':
      return denoEnvelope('SANDBOX_RESULT_NOT_JSON', {
        expected: 'a JSON-serialisable value',
        received_value: message,
        remediation: `The function's value cannot be sent back as JSON (${message}); return plain data: strings, numbers, booleans, null, arrays and objects of them.`,
      });
    case 'output':
      return endings.resultCapped(typeof report.size === 'number' ? report.size : cap + 1, cap);
  }
  return denoEnvelope('SANDBOX_CODE_THREW', {
    received_value: message,
    remediation: `The code threw ${message}${where(report.position)}; fix the code (or catch the error) so it returns a value.`,
  });
}
