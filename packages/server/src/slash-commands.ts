import type { AvailableCommand } from '@agentclientprotocol/sdk';

/** The commands the agent answers itself, without a model call, announced with `available_commands_update`. */
export const AVAILABLE_COMMANDS: readonly AvailableCommand[] = [
  { name: 'title', description: "Set this session's title (shown in session lists)", input: { hint: 'the new title' } },
  { name: 'tools', description: 'List the tools the model can call, with their tiers' },
];

/** A prompt that is one of the available commands: `/title Fix the parser` → `{ name: 'title', input: 'Fix the parser' }`. */
export function slashCommand(text: string): { name: string; input: string } | undefined {
  const match = /^\/([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match || !AVAILABLE_COMMANDS.some((c) => c.name === match[1])) return undefined;
  return { name: match[1]!, input: (match[2] ?? '').trim() };
}
