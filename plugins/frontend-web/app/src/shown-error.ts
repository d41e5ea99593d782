/** What the console shows of a failure: the envelope's category, code and remediation, as text. */
export interface ShownError {
  readonly category?: string;
  readonly code?: string;
  readonly remediation: string;
}

/**
 * The envelope in a failure (a ProtocolError's `envelope`, an envelope itself, or its JSON text), else
 * the error's message: every failure is shown as its envelope (docs/architecture.md §4).
 */
export function shownError(error: unknown): ShownError {
  const envelope = envelopeOf(error) ?? envelopeOf((error as { envelope?: unknown } | undefined)?.envelope);
  if (envelope) return envelope;
  if (error instanceof Error) return { remediation: error.message };
  return { remediation: typeof error === 'string' ? error : JSON.stringify(error) ?? String(error) };
}

/** An envelope found in a value: the object itself, or the JSON text of one. */
export function envelopeOf(value: unknown): ShownError | undefined {
  let candidate = value;
  if (typeof value === 'string') {
    if (!value.trimStart().startsWith('{')) return undefined;
    try {
      candidate = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const e = candidate as Record<string, unknown>;
  if (e.status !== 'error' || typeof e.remediation !== 'string') return undefined;
  return {
    remediation: e.remediation,
    ...(typeof e.category === 'string' ? { category: e.category } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
  };
}
