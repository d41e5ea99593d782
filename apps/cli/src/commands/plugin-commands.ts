import type { Command } from 'commander';
import { KERNEL_STREAM } from '@nodwyn/kernel';
import type { CliCommand } from '@nodwyn/plugin-api';
import { boot, type WorkspaceScope } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { forTerminal } from '../terminal-text.js';
import { guarded } from './guarded.js';

/**
 * Adds the subcommands plugins contributed (e.g. `nodwyn secret`), each run with the booted runtime, which
 * closes after the command ran. Returns what closes it sooner, for a caller that runs none of them.
 */
export async function addPluginCommands(program: Command): Promise<() => Promise<void>> {
  const runtime = await boot(cliBoot());
  for (const { item: command } of runtime.kernel.commands.list()) {
    // A built-in group of the same name (`nodwyn mcp`) reaches the plugin's command itself (mcp-manage.ts).
    if (program.commands.some((c) => c.name() === command.name)) continue;
    const sub = program.command(command.name).description(command.description);
    for (const arg of command.arguments ?? []) sub.argument(arg.endsWith('...') ? `[${arg}]` : `<${arg}>`);
    for (const option of command.options ?? []) sub.option(option.flags, option.description);
    sub.action(async (...received: unknown[]) => {
      const options = (received.at(-2) ?? {}) as Record<string, unknown>;
      const args = received.slice(0, -2).flat().map(String);
      process.exitCode = await guarded(false, () => runInTerminal(runtime, command, args, options));
    });
  }
  const close = () => runtime.close();
  program.hook('postAction', close);
  return close;
}

/**
 * Runs a plugin's command on the person's terminal. Its output can carry what a capability or a file
 * produced: it passes the text layers, then has its escapes made visible.
 */
export function runInTerminal(runtime: WorkspaceScope, command: CliCommand, args: readonly string[], options: Readonly<Record<string, unknown>>): Promise<number> {
  const forPerson = (text: string) => forTerminal(runtime.kernel.shown(KERNEL_STREAM, text));
  return command.run({
    args,
    options,
    io: { stdin: process.stdin, write: (t) => process.stdout.write(forPerson(t)), error: (t) => process.stderr.write(forPerson(t)), interactive: Boolean(process.stdin.isTTY) },
  });
}
