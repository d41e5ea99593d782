import type { Command } from 'commander';
import { KERNEL_STREAM } from '@nodwyn/kernel';
import { boot } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { forTerminal } from '../terminal-text.js';
import { guarded } from './guarded.js';

/**
 * Adds the subcommands plugins contributed (e.g. `nodwyn secret`), each run with the booted runtime, which
 * closes after the command ran. Returns what closes it sooner, for a caller that runs none of them.
 */
export async function addPluginCommands(program: Command): Promise<() => Promise<void>> {
  const runtime = await boot(cliBoot());
  // A command's output can carry what a capability or a file produced: text layers, then visible escapes.
  const forPerson = (text: string) => forTerminal(runtime.kernel.shown(KERNEL_STREAM, text));
  for (const { item: command } of runtime.kernel.commands.list()) {
    // A built-in group of the same name (`nodwyn mcp`) reaches the plugin's command itself (mcp-manage.ts).
    if (program.commands.some((c) => c.name() === command.name)) continue;
    const sub = program.command(command.name).description(command.description);
    for (const arg of command.arguments ?? []) sub.argument(arg.endsWith('...') ? `[${arg}]` : `<${arg}>`);
    for (const option of command.options ?? []) sub.option(option.flags, option.description);
    sub.action(async (...received: unknown[]) => {
      const options = (received.at(-2) ?? {}) as Record<string, unknown>;
      const args = received.slice(0, -2).flat().map(String);
      process.exitCode = await guarded(false, () =>
        command.run({
          args,
          options,
          io: { stdin: process.stdin, write: (t) => process.stdout.write(forPerson(t)), error: (t) => process.stderr.write(forPerson(t)), interactive: Boolean(process.stdin.isTTY) },
        }),
      );
    });
  }
  const close = () => runtime.close();
  program.hook('postAction', close);
  return close;
}
