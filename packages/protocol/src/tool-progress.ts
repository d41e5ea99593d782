/**
 * How far a running tool call has got, as front ends receive it (`_meta.nodwyn.progress` of a
 * `tool_call_update`). Plain code, no schema library: the web console's bundle imports it
 * (`@nodwyn/protocol/tool-progress`).
 */
export interface ToolProgressView {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The progress a `tool_call_update`'s `_meta` carries, if any (anything malformed is none). */
export function toolProgressOf(meta: unknown): ToolProgressView | undefined {
  const raw = (meta as { nodwyn?: { progress?: Record<string, unknown> } } | null | undefined)?.nodwyn?.progress;
  if (typeof raw !== 'object' || raw === null || !finite(raw.progress)) return undefined;
  return {
    progress: raw.progress,
    ...(finite(raw.total) ? { total: raw.total } : {}),
    ...(typeof raw.message === 'string' && raw.message !== '' ? { message: raw.message } : {}),
  };
}

/** Progress as a person reads it: `3/10 compiling`, `42%`, `step 2`. */
export function progressText(progress: ToolProgressView): string {
  const { total } = progress;
  const amount = total !== undefined && total > 0 ? (total === 100 ? `${Math.round(progress.progress)}%` : `${progress.progress}/${total}`) : progress.message ? '' : `step ${progress.progress}`;
  return [amount, progress.message ?? ''].filter((part) => part !== '').join(' ');
}
