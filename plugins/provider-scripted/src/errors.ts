import { EnvelopeError } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-provider-scripted';

/** Every failure code this plugin raises; each names one precise reason. */
export const ScriptedErrorCode = {
  /** `--provider scripted` without `--script FILE`. */
  SCRIPT_OPTION_MISSING: 'SCRIPT_OPTION_MISSING',
  /** The script path does not name a readable file. */
  SCRIPT_NOT_FOUND: 'SCRIPT_NOT_FOUND',
  /** The script file is larger than the provider accepts. */
  SCRIPT_TOO_LARGE: 'SCRIPT_TOO_LARGE',
  /** The script file is not JSON. */
  SCRIPT_INVALID_JSON: 'SCRIPT_INVALID_JSON',
  /** The script is JSON but not a script (wrong type, unknown key, empty reply). */
  SCRIPT_INVALID: 'SCRIPT_INVALID',
  /** The run asked for more replies than the script (or the replayed session) has. */
  SCRIPT_EXHAUSTED: 'SCRIPT_EXHAUSTED',
  /** `--provider replay` without `--session ID`. */
  REPLAY_SESSION_MISSING: 'REPLAY_SESSION_MISSING',
  /** The session to replay has no events. */
  REPLAY_SESSION_NOT_FOUND: 'REPLAY_SESSION_NOT_FOUND',
  /** A logged `message.assistant` event of the replayed session does not have the expected shape. */
  REPLAY_EVENT_INVALID: 'REPLAY_EVENT_INVALID',
  /** The model call was cancelled while streaming. */
  PROVIDER_CANCELLED: 'PROVIDER_CANCELLED',
} as const;

/** The error raised when the caller's signal fires. */
export function cancelledError(): EnvelopeError {
  return new EnvelopeError({
    category: 'CANCELLED',
    code: ScriptedErrorCode.PROVIDER_CANCELLED,
    operation: 'model.stream',
    plugin: PLUGIN_NAME,
    remediation: 'The model call was cancelled; nothing else needs doing.',
  });
}

/**
 * The error raised when a run asks for a reply past the end. Numbers are 1-based in the text because a
 * person counts replies that way; `index` is the 0-based reply the run asked for.
 */
export function exhaustedError(source: { what: string; fix: string }, available: number, index: number): EnvelopeError {
  return new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: ScriptedErrorCode.SCRIPT_EXHAUSTED,
    operation: 'model.stream',
    plugin: PLUGIN_NAME,
    failed_parameter: 'reply',
    received_value: index + 1,
    expected: `at most ${available}`,
    remediation: `${source.what} has ${available} ${available === 1 ? 'reply' : 'replies'} and the run asked for reply ${index + 1}; ${source.fix}.`,
  });
}
