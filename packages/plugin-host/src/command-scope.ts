import { AsyncLocalStorage } from 'node:async_hooks';
import type { CliCommand } from '@nodwyn/plugin-api';

// Which plugin's command a person is running, across the awaits inside it. A plugin's host calls made
// there may reach model tools through host primitives (`nodwyn capability test` runs a capability whose
// code reads files); the same calls from a stage, a service, a loop or a timer may reach host primitives only.
const running = new AsyncLocalStorage<string>();

/** `command`, with its `run` marked as a person's command of `plugin`. */
export function asPersonsCommand(plugin: string, command: CliCommand): CliCommand {
  return { ...command, run: (input) => running.run(plugin, () => command.run(input)) };
}

/** Whether the code calling this runs inside a person's command of `plugin`. */
export function inPersonsCommand(plugin: string): boolean {
  return running.getStore() === plugin;
}
