import { EnvelopeError } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import type { RunResult } from '@nodwyn/kernel';
import { latestTitle, providerIdFrom, titleFrom, turnSetup, withRuntime, type TurnFlags, type WorkspaceScope } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { confirmerFor } from '../confirmer.js';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { formatEnvelope } from '../output.js';
import { readAll } from '../read-all.js';
import { forTerminal, jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';
import { streamPrinter } from './stream-printer.js';

/** Options of `nodwyn run`. */
export interface RunFlags extends TurnFlags {
  judge?: boolean;
  json?: boolean;
  yes?: boolean;
}

/** The most a prompt read from stdin may be: far more than anyone types, far less than a runaway pipe. */
export const MAX_STDIN_PROMPT_BYTES = 1024 * 1024;

/** `nodwyn run PROMPT`: one prompt in the current directory until the model answers or the run stops. */
export async function runCommand(prompt: string | undefined, flags: RunFlags): Promise<number> {
  return guarded(flags.json, async () => {
    const text = await promptText(prompt, flags);
    return withRuntime(cliBoot({ judge: flags.judge }), (scope) => run(scope, text, flags));
  });
}

/**
 * The prompt: the argument, or stdin for `-` and for no argument with stdin piped (`git diff | nodwyn
 * run`). A replay with no prompt takes the replayed session's first one, so its stdin is left alone. Blank
 * input counts as no prompt; the newline a pipe ends with is dropped.
 */
async function promptText(prompt: string | undefined, flags: RunFlags): Promise<string | undefined> {
  const piped = prompt === undefined && !process.stdin.isTTY && !(flags.provider === 'replay' && flags.session !== undefined);
  if (prompt !== '-' && !piped) return prompt;
  const text = await readAll(process.stdin, MAX_STDIN_PROMPT_BYTES, (limit) =>
    new EnvelopeError({
      category: 'LIMIT_EXCEEDED',
      code: CliCodes.RUN_PROMPT_TOO_LARGE,
      failed_parameter: 'stdin',
      expected: `a prompt of at most ${limit} bytes`,
      remediation: `The prompt on stdin is over ${limit / 1024 / 1024} MiB. Send less, or put the text in a file in the workspace and ask about the file.`,
    }),
  );
  return text.trim() === '' ? undefined : text.trimEnd();
}

async function run(runtime: WorkspaceScope, prompt: string | undefined, flags: RunFlags): Promise<number> {
  const { kernel, config } = runtime;
  if (flags.judge) requireJudgeProvider(config);
  const replay = providerIdFrom(config, flags) === 'replay';
  // The provider is created before any session exists, so a bad script or option leaves the log untouched.
  const setup = await turnSetup(runtime, flags);
  const text = prompt ?? (replay && flags.session ? firstPrompt(runtime, flags.session) : undefined);
  if (text === undefined) {
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: CliCodes.RUN_PROMPT_MISSING,
      failed_parameter: 'prompt',
      remediation: 'Give the prompt as an argument (nodwyn run "what to do") or on stdin (nodwyn run - < prompt.txt).',
    });
  }
  const session = flags.session && !replay ? kernel.sessions.get(flags.session).id : kernel.sessions.create({ workspace: runtime.workspace, replayOf: replay ? flags.session : undefined });
  const controller = new AbortController();
  const stopCancel = cancelOnSignals(controller);
  const unsubscribe = flags.json ? kernel.log.subscribe((event: LogEvent) => printEvent(event, session)) : () => undefined;
  const stream = streamPrinter(flags.json === true, process.stdout.isTTY === true);
  if (flags.json) for (const event of kernel.log.read(session)) printEvent(event, session);
  titleIfUntitled(runtime, session, text);
  try {
    const result = await kernel.run({
      session,
      prompt: text,
      provider: setup.provider,
      ...(setup.summaryProvider ? { summaryProvider: setup.summaryProvider } : {}),
      strategy: setup.strategy,
      strategyOwner: setup.strategyOwner,
      budgets: setup.budgets,
      signal: controller.signal,
      confirmer: confirmerFor(flags.yes),
      onEvent: stream.onEvent,
    });
    return report(result, flags.json, stream.streamed());
  } finally {
    unsubscribe();
    stopCancel();
  }
}

/**
 * Ctrl-C, a closed terminal (SIGHUP) and `timeout`/CI cancels (SIGTERM) all cancel the turn the same way:
 * the tool's process group is killed, the cancel is logged and the database closed. Without a handler
 * SIGTERM and SIGHUP ended node at once, leaving the tool's child running and the turn open. A second
 * signal quits at once.
 */
function cancelOnSignals(controller: AbortController): () => void {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(EXIT.CANCELLED);
    // After SIGHUP the terminal is gone: writing to it could only fail.
    if (signal !== 'SIGHUP') process.stderr.write(`\nnodwyn: cancelling on ${signal} (send it again to quit at once)\n`);
    controller.abort();
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}

/** `--judge` needs a judge model; without `[judge] provider` the flag would silently do nothing. */
function requireJudgeProvider(config: WorkspaceScope['config']): void {
  const judge = config.judge;
  if (typeof judge === 'object' && judge !== null && typeof (judge as Record<string, unknown>).provider === 'string') return;
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: CliCodes.JUDGE_NOT_CONFIGURED,
    failed_parameter: '--judge',
    remediation: 'The judge has no model: add [judge] with provider = "<id>" (and model) to config.toml, then run with --judge again. See plugins/judge/README.md.',
  });
}

function printEvent(event: LogEvent, session: string): void {
  if (event.session === session) process.stdout.write(`${jsonText(event)}\n`);
}

/**
 * A session's first prompt gives it its title, as the server does (`titleFrom`, logged as
 * `session.titled` by the user): a new session's, or one's that never had one. A fork keeps its parent's.
 */
function titleIfUntitled(runtime: WorkspaceScope, session: string, prompt: string): void {
  const { kernel } = runtime;
  if (latestTitle(kernel.log, session) !== undefined || kernel.sessions.get(session).title) return;
  const title = titleFrom(prompt);
  if (title !== '') kernel.append(session, { type: 'session.titled', actor: 'user', payload: { title } });
}

function firstPrompt(runtime: WorkspaceScope, session: string): string | undefined {
  const first = runtime.kernel.log.read(session).find((e) => e.type === 'message.user');
  return first ? String(first.payload.text) : undefined;
}

/**
 * The answer on stdout; on stderr, why a run stopped short, then the session's id, last, so a person can
 * continue it (`nodwyn -c`, `nodwyn run --session ID`). With `--json` both are in the events on stdout and
 * stderr keeps only notices.
 */
function report(result: RunResult, json: boolean | undefined, streamed: boolean): number {
  if (!json) {
    if (result.reason === 'answer') process.stdout.write(streamed ? '\n' : `${forTerminal(result.answer ?? '')}\n`);
    else {
      if (streamed) process.stdout.write('\n');
      if (result.envelope) process.stderr.write(formatEnvelope(result.envelope));
    }
    process.stderr.write(`session: ${result.session}\n`);
  }
  if (result.reason === 'answer') return EXIT.OK;
  if (result.reason === 'cancelled') return EXIT.CANCELLED;
  if (result.reason === 'budget' || result.reason === 'progress') return EXIT.STOPPED;
  return EXIT.ENVELOPE;
}
