import { EnvelopeError, envelope, toEnvelope, type PrimitiveCallContext, type ToolResult } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';
import type { RegisteredPrimitive } from '../primitives/primitive-table.js';
import { isPromise } from './is-promise.js';

/** Default timeout of one call when the primitive names none. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** A result after the kernel's output cap. */
export interface CappedResult extends ToolResult {
  readonly truncated: boolean;
}

/** Cuts `content` to `cap` bytes (UTF-8), saying how much was left out. */
export function capContent(content: string, cap: number): { content: string; truncated: boolean } {
  const bytes = Buffer.byteLength(content);
  if (bytes <= cap) return { content, truncated: false };
  const kept = Buffer.from(content).subarray(0, cap).toString('utf8').replace(/\uFFFD$/, '');
  return { content: `${kept}\n[output cut by nodwyn: ${bytes - Buffer.byteLength(kept)} of ${bytes} bytes omitted]`, truncated: true };
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && typeof (value as ToolResult).content === 'string';
}

/**
 * The execute slot: runs the handler with a timeout, the caller's cancellation and the output cap. A
 * handler that ignores its abort signal is abandoned at the deadline, so a call always ends. A handler
 * that answers synchronously skips the timer and the race.
 */
export async function execute(
  primitive: RegisteredPrimitive,
  args: unknown,
  context: Omit<PrimitiveCallContext, 'signal'>,
  signal: AbortSignal,
): Promise<CappedResult> {
  const controller = new AbortController();
  const onParentAbort = (): void => controller.abort(new EnvelopeError(cancelEnvelope(primitive.name)));
  if (signal.aborted) onParentAbort();
  else signal.addEventListener('abort', onParentAbort, { once: true });
  try {
    const pending = primitive.handler(args, { ...context, signal: controller.signal });
    const result = isPromise(pending) ? await raceDeadline(primitive, pending, controller) : pending;
    if (controller.signal.aborted) throw controller.signal.reason;
    if (!isToolResult(result)) throw new EnvelopeError(invalidResultEnvelope(primitive));
    const capped = capContent(result.content, context.outputCap);
    return { ...result, ...capped };
  } catch (error) {
    // A handler that failed because we aborted it reports the abort reason, not its own error.
    const reason = controller.signal.aborted ? controller.signal.reason : error;
    throw new EnvelopeError(
      toEnvelope(reason, { operation: primitive.name, plugin: primitive.owner, code: KernelCodes.TOOL_HANDLER_FAILED }),
      { cause: error },
    );
  } finally {
    signal.removeEventListener('abort', onParentAbort);
  }
}

async function raceDeadline<T>(primitive: RegisteredPrimitive, pending: Promise<T>, controller: AbortController): Promise<T> {
  const timeoutMs = primitive.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(new EnvelopeError(timeoutEnvelope(primitive.name, timeoutMs))), timeoutMs);
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([pending, aborted]);
  } finally {
    clearTimeout(timer);
    aborted.catch(() => undefined);
  }
}

function timeoutEnvelope(name: string, ms: number) {
  return envelope({
    category: 'TIMEOUT',
    code: KernelCodes.TOOL_TIMEOUT,
    operation: name,
    remediation: `${name} did not finish within ${ms} ms and was stopped. Narrow the request or raise its timeout.`,
  });
}

function cancelEnvelope(name: string) {
  return envelope({
    category: 'CANCELLED',
    code: KernelCodes.TOOL_CANCELLED,
    operation: name,
    remediation: `${name} was cancelled before it finished; its effects may be partial.`,
  });
}

function invalidResultEnvelope(primitive: RegisteredPrimitive) {
  return envelope({
    category: 'INTERNAL',
    code: KernelCodes.TOOL_RESULT_INVALID,
    operation: primitive.name,
    plugin: primitive.owner,
    remediation: `${primitive.name} returned something other than { content: string }. This is a bug in ${primitive.owner}.`,
  });
}
