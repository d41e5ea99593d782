import { isEnvelopeError, type CliCommand, type CommandIO, type PluginDefinition } from '@nodwyn/plugin-api';
import { EnvelopeSchema } from '@nodwyn/protocol';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel, type TestKernelOptions } from '../start-test-kernel.js';

/** How to run the command suite against one plugin. */
export interface CommandSuiteOptions extends Omit<TestKernelOptions, 'plugins'> {
  /** Plugins the command's plugin requires, loaded beside it. */
  readonly with?: readonly PluginDefinition[];
  /** Longest one run may take before the suite calls it stuck; 5 s by default. */
  readonly timeoutMs?: number;
}

/** What a command printed, and how it ended: an exit code, or the envelope it threw. */
export interface CommandOutcome {
  readonly stdout: string;
  readonly stderr: string;
  readonly exit: number | 'envelope';
}

/** The words `nodwyn` keeps for its own commands: a plugin's command may not take them. */
export const RESERVED_COMMANDS: readonly string[] = ['acp', 'attach', 'dist', 'fork', 'help', 'log', 'mcp', 'mock', 'models', 'openapi', 'plugin', 'plugins', 'run', 'serve', 'setup', 'tools', 'trust', 'web'];

const COMMAND_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const ARGUMENT = /^[A-Za-z][A-Za-z0-9_-]*$/;
// commander's flag syntax: an optional short flag, a long flag, an optional <required> or [optional] value.
const FLAGS = /^(-[a-zA-Z], )?--[a-z][a-z0-9-]*( <[a-z][a-z0-9-]*(\.\.\.)?>| \[[a-z][a-z0-9-]*(\.\.\.)?\])?$/;

/**
 * Runs `command` as `nodwyn` would with no terminal: stdin empty and closed, output collected. Fails the
 * test if it hangs, or throws anything but an envelope.
 */
export async function runCommand(command: CliCommand, args: readonly string[], options: Readonly<Record<string, unknown>> = {}, timeoutMs = 5000): Promise<CommandOutcome> {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = { stdin: Readable.from([]), write: (t) => void (stdout += t), error: (t) => void (stderr += t), interactive: false };
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nodwyn ${command.name} ${args.join(' ')} did not end within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const exit = await Promise.race([command.run({ args, options, io }), stuck]);
    return { stdout, stderr, exit };
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    expect(EnvelopeSchema.safeParse(error.envelope).success, `nodwyn ${command.name} throws a valid envelope`).toBe(true);
    return { stdout, stderr, exit: 'envelope' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What every plugin that contributes `nodwyn` subcommands must do: register exactly the commands its
 * manifest provides, with a free, well-formed name, a one-line description, arguments and options in the
 * syntax the CLI parses; and, given arguments it cannot use (missing, empty, odd) with no terminal,
 * end in time with an exit code from 0 to 255 (non-zero with a word on stderr when it refused) or an
 * envelope, never a bare error and never a wait for input that will not come.
 */
export function describeCommandConformance(plugin: PluginDefinition, options: CommandSuiteOptions = {}): void {
  const { with: beside = [], timeoutMs = 5000, ...kernelOptions } = options;
  const declared = plugin.manifest.provides.filter((p) => p.startsWith('command:')).map((p) => p.slice('command:'.length));
  const withCommands = async (body: (commands: readonly CliCommand[], t: TestKernel) => Promise<void>): Promise<void> => {
    const t = await startTestKernel({ ...kernelOptions, plugins: [plugin, ...beside] });
    try {
      await body(t.kernel.commands.list().filter((c) => c.owner === plugin.manifest.name).map((c) => c.item), t);
    } finally {
      await t.stop();
    }
  };

  describe(`${plugin.manifest.name} conforms as a command plugin`, () => {
    it('registers exactly the commands it provides, well named, described and declared', () =>
      withCommands(async (commands) => {
        expect(declared.length, 'a command plugin provides at least one command:<name>').toBeGreaterThan(0);
        expect(commands.map((c) => c.name).sort()).toEqual([...declared].sort());
        for (const c of commands) {
          expect(COMMAND_NAME.test(c.name), `${c.name}: lowercase letters, digits and dashes`).toBe(true);
          expect(RESERVED_COMMANDS, `${c.name} is one of nodwyn's own commands`).not.toContain(c.name);
          expect(c.description.trim().length, c.name).toBeGreaterThan(10);
          expect(c.description.includes('\n'), `${c.name}'s description is one line`).toBe(false);
          const names = c.arguments ?? [];
          names.forEach((arg, i) => {
            const variadic = arg.endsWith('...');
            expect(ARGUMENT.test(variadic ? arg.slice(0, -3) : arg), `${c.name} argument ${arg}: a letter, then letters, digits, _ or -`).toBe(true);
            if (variadic) expect(i, `${c.name}: only the last argument may be variadic`).toBe(names.length - 1);
          });
          for (const option of c.options ?? []) {
            expect(FLAGS.test(option.flags), `${c.name} option "${option.flags}" in commander's syntax`).toBe(true);
            expect(option.description.trim().length, `${c.name} option ${option.flags} is described`).toBeGreaterThan(0);
          }
        }
      }));

    it('ends on arguments it cannot use, with no terminal, in time and with an exit code or an envelope', () =>
      withCommands(async (commands) => {
        const odd = [[], [''], ['\u0000\u001b[2J'], ['--definitely-not-an-option'], ['../../../../etc/passwd'], ['x'.repeat(100_000)]];
        for (const c of commands)
          for (const args of odd) {
            const outcome = await runCommand(c, args, {}, timeoutMs);
            if (outcome.exit === 'envelope') continue;
            expect(Number.isInteger(outcome.exit) && outcome.exit >= 0 && outcome.exit <= 255, `nodwyn ${c.name} exits 0-255, not ${outcome.exit}`).toBe(true);
            if (outcome.exit !== 0) expect(outcome.stderr.trim().length, `nodwyn ${c.name} ${JSON.stringify(args)} says on stderr why it refused`).toBeGreaterThan(0);
          }
      }), 60_000);
  });
}
