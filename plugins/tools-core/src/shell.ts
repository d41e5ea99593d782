import { definePrimitive, z } from '@nodwyn/plugin-api';
import type { ToolsConfig } from './config.js';
import { shellEffect } from './effects.js';
import { toolsError, toolsFail } from './errors.js';
import { NOTE_RESERVE } from './output.js';
import { isAllowedCommand } from './shell-allow-list.js';
import { shellEnvironment } from './shell-env.js';
import { gitHardening, repositoryConfigKeys, type GitHardening } from './shell-git.js';
import { runShell, type ShellOutcome } from './shell-runner.js';

/** Between SIGTERM and SIGKILL: long enough for a test runner to clean up, short enough not to stall a turn. */
const KILL_GRACE_MS = 2000;

function shellInput(config: ToolsConfig['shell']) {
  return z
    .object({
      command: z
        .string()
        .min(1)
        .describe(
          'Command line for bash, e.g. "npm test -- --run" or "git diff --stat". Runs in the workspace root ' +
            'with no stdin, so nothing can prompt; use && to stop at the first failing step.',
        ),
      timeout_ms: z
        .number()
        .int()
        .min(1000)
        .max(config.maxTimeoutMs)
        .optional()
        .describe(`Milliseconds before the command and everything it started are killed. Default ${config.defaultTimeoutMs}, at most ${config.maxTimeoutMs}.`),
    })
    .strict();
}

/** shell's arguments. */
export type ShellArgs = z.infer<ReturnType<typeof shellInput>>;

/**
 * shell: a bash command in the workspace. Declared `destructive`, so each call needs a confirmation,
 * except commands on the person's allow-list, which classify as `mutate`: the list says "do not ask me",
 * not "this only reads" (`npm test` writes caches, `git log *` allows `--output=FILE`), so a read-only
 * policy still keeps them out.
 */
export function createShellTool(config: ToolsConfig['shell']) {
  return definePrimitive({
    name: 'shell',
    description:
      'Run a bash command in the workspace root and wait for it. Prints "exit code: N" (or "killed by ' +
      'signal: NAME") on the first line, then stdout and stderr interleaved; long output keeps its start and ' +
      'end with a marker saying how much was cut. Background jobs (&) are killed when the command ends, so ' +
      'do not start servers or watchers. Not a sandbox: it runs with the person\'s own permissions.',
    input: shellInput(config),
    tier: 'destructive',
    classify: (args) => (isAllowedCommand(args.command, config.allow) ? 'mutate' : 'destructive'),
    visibility: 'model',
    kind: 'execute',
    effect: (args) => shellEffect(args.command),
    // The kernel's own timer must not fire before ours, which reports SHELL_TIMEOUT precisely.
    timeoutMs: config.maxTimeoutMs + KILL_GRACE_MS + 5000,
    async handler(args, context) {
      const timeoutMs = args.timeout_ms ?? config.defaultTimeoutMs;
      const env = shellEnvironment(process.env, config.passEnv);
      // Nobody looked at an allow-listed command before it ran, so the workspace's git config may not make it run anything.
      const hardened = isAllowedCommand(args.command, config.allow) ? gitHardening(env, await repositoryConfigKeys(context.workspace, env, context.signal)) : undefined;
      const outcome = await runShell({
        command: args.command,
        cwd: context.workspace,
        timeoutMs,
        signal: context.signal,
        outputBytes: Math.max(1024, context.outputCap - NOTE_RESERVE),
        killGraceMs: KILL_GRACE_MS,
        env: hardened?.env ?? env,
      }).catch((error: unknown) => {
        throw toolsError('SHELL_SPAWN_FAILED', {
          operation: 'shell',
          remediation: `bash could not be started (${error instanceof Error ? error.message : String(error)}); the shell tool needs bash on the PATH.`,
        }, error);
      });
      if (outcome.ending !== 'exited') failStopped(outcome.ending, timeoutMs, config.maxTimeoutMs);
      // The final newline nearly every command prints carries nothing.
      const output = outcome.output.endsWith('\n') ? outcome.output.slice(0, -1) : outcome.output;
      return {
        content: `${exitLine(outcome)}\n${output === '' ? '[no output]' : output}${switchedOffNote(hardened)}`,
        data: { exitCode: outcome.exitCode, signal: outcome.exitSignal },
      };
    },
  });
}

/** Says which of the repository's git settings did not apply, so a changed result is not a mystery. */
function switchedOffNote(hardened: GitHardening | undefined): string {
  if (!hardened || hardened.switchedOff.length === 0) return '';
  return `\n[nodwyn: allow-listed commands run without the repository's git settings that run programs; switched off: ${hardened.switchedOff.join(', ')}]`;
}

function exitLine(outcome: ShellOutcome): string {
  return outcome.exitSignal !== null ? `killed by signal: ${outcome.exitSignal}` : `exit code: ${outcome.exitCode ?? 'unknown'}`;
}

function failStopped(ending: 'timeout' | 'cancelled', timeoutMs: number, maxTimeoutMs: number): never {
  if (ending === 'cancelled') {
    toolsFail('SHELL_CANCELLED', {
      operation: 'shell',
      remediation: 'The call was cancelled; the command and everything it started were killed.',
    });
  }
  return toolsFail('SHELL_TIMEOUT', {
    operation: 'shell',
    failed_parameter: '$.timeout_ms',
    received_value: timeoutMs,
    // Running the same command again would time out again.
    retryable: 'after_remediation',
    remediation:
      `The command ran past ${timeoutMs} ms, so it and everything it started were killed. ` +
      (timeoutMs < maxTimeoutMs ? `Pass a larger timeout_ms (at most ${maxTimeoutMs}), or run` : 'Run') +
      ' something that ends sooner: no watch modes, servers or prompts.',
  });
}
