import { toEnvelope, type Confirmer, type Envelope, type LoopStrategy, type ModelProvider, type WorkspaceFiles } from '@nodwyn/plugin-api';
import type { FrontendEvent, TurnEndReason } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';
import { DEFAULT_BUDGETS, type Budgets } from './budgets.js';
import { Floor, type FloorDeps } from './turn-floor.js';

/** One prompt to run to its end. */
export interface RunOptions {
  readonly session: string;
  /**
   * The person's prompt, logged as `message.user`. Without one the turn works on the session as it is
   * (an agent command's turn, such as `/compact`), and nothing is logged as the person's words.
   */
  readonly prompt?: string;
  readonly provider: ModelProvider;
  /** The model that writes the turn's summaries, when it is not `provider` (`[memory] summary_model`). */
  readonly summaryProvider?: ModelProvider;
  readonly strategy: LoopStrategy;
  /** The plugin that registered the strategy, named in envelopes when it fails. */
  readonly strategyOwner?: string;
  readonly budgets?: Partial<Budgets>;
  readonly signal?: AbortSignal;
  readonly confirmer?: Confirmer;
  readonly onEvent?: (event: FrontendEvent) => void;
  /** The workspace's files as the front end serves them (an editor's buffers); the file tools read and write them. */
  readonly files?: WorkspaceFiles;
}

/** What a run needs from the kernel: the floor's needs, and closing a turn a previous process left open. */
export interface RunDeps extends FloorDeps {
  readonly recover: (session: string) => boolean;
}

/** How a run ended. `answer` is set when the model answered; `envelope` when it did not. */
export interface RunResult {
  readonly session: string;
  readonly reason: TurnEndReason;
  readonly answer?: string;
  readonly envelope?: Envelope;
}

/**
 * Runs one prompt: logs it (when there is one), hands the floor to the loop strategy, and logs how the run ended. A turn a
 * previous process left open is closed first (`Kernel.recover`), so the log answers every call exactly once.
 */
export async function runTurn(deps: RunDeps, options: RunOptions): Promise<RunResult> {
  const { session } = options;
  deps.recover(session);
  if (options.prompt !== undefined) deps.append(session, { type: 'message.user', actor: 'user', payload: { text: options.prompt } });
  deps.append(session, { type: 'turn.started', actor: 'kernel', payload: { provider: options.provider.id, strategy: options.strategy.id, pid: process.pid } });
  const floor = new Floor(deps, {
    session,
    provider: options.provider,
    ...(options.summaryProvider ? { summaryProvider: options.summaryProvider } : {}),
    budgets: { ...DEFAULT_BUDGETS, ...options.budgets },
    signal: options.signal ?? new AbortController().signal,
    confirmer: options.confirmer,
    onEvent: options.onEvent,
    files: options.files,
  });
  let result: RunResult;
  try {
    const outcome = await options.strategy.run(floor);
    result = { session, reason: 'answer', answer: String(outcome.answer) };
  } catch (error) {
    const stop = floor.stopped;
    result = stop
      ? { session, reason: stop.reason, envelope: stop.envelope }
      : { session, reason: 'failed', envelope: toEnvelope(error, { plugin: options.strategyOwner, code: KernelCodes.LOOP_FAILED }) };
  } finally {
    floor.dispose();
  }
  floor.closeUnanswered(KernelCodes.LOOP_SKIPPED_CALL);
  deps.append(session, {
    type: 'turn.ended',
    actor: 'kernel',
    payload: { reason: result.reason, ...(result.answer !== undefined ? { answer: result.answer } : {}), ...(result.envelope ? { envelope: result.envelope } : {}) },
  });
  return shownResult(deps, result);
}

// The answer and the envelope are printed for a person: through the text layers, like the streamed deltas.
function shownResult(deps: FloorDeps, result: RunResult): RunResult {
  const shown = deps.shown;
  if (!shown) return result;
  const text = (value: string) => shown(result.session, value);
  try {
    const envelope = result.envelope && (Object.fromEntries(Object.entries(result.envelope).map(([k, v]) => [k, typeof v === 'string' ? text(v) : v])) as Envelope);
    return { ...result, ...(result.answer !== undefined ? { answer: text(result.answer) } : {}), ...(envelope ? { envelope } : {}) };
  } catch (error) {
    // The text layers failed: nothing of the answer is shown, and the person is told why.
    return { session: result.session, reason: 'failed', envelope: toEnvelope(error, { code: KernelCodes.LOG_FILTER_FAILED }) };
  }
}
