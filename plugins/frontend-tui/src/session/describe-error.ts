/**
 * One line for a failure, never a stack trace: an envelope's code and remediation (what the client's
 * `ProtocolError` and plugin-api's `EnvelopeError` carry), else the error's first line.
 */
export function describeError(error: unknown): string {
  const envelope = typeof error === 'object' && error !== null ? (error as { envelope?: { code?: unknown; remediation?: unknown } }).envelope : undefined;
  if (envelope && typeof envelope.remediation === 'string') {
    return typeof envelope.code === 'string' ? `${envelope.code}: ${envelope.remediation}` : envelope.remediation;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim() || 'Something failed without saying why.';
}

/** The remediation alone, when the error carries one. */
export function remediationOf(error: unknown): string {
  const envelope = typeof error === 'object' && error !== null ? (error as { envelope?: { remediation?: unknown } }).envelope : undefined;
  return typeof envelope?.remediation === 'string' ? envelope.remediation : describeError(error);
}
