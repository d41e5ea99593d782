import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { AgentCommandEntry } from '@nodwyn/plugin-host';

/**
 * The commands the agent answers itself, without a model call. Their names are among plugin-api's
 * `RESERVED_AGENT_COMMANDS`, so no plugin's command can shadow one.
 */
export const BUILTIN_COMMANDS: readonly AvailableCommand[] = [
  { name: 'title', description: "Set this session's title (shown in session lists)", input: { hint: 'the new title' } },
  { name: 'tools', description: 'List the tools the model can call, with their tiers' },
  { name: 'model', description: "Show this session's provider, model and the known models, or switch its model", input: { hint: 'a model id, or provider/model' } },
  { name: 'cost', description: 'Tokens and cost of this session so far, and of its last turn' },
  { name: 'verify', description: "Check this session's log: its hash chain and signed checkpoint" },
  { name: 'trust', description: "Whether this workspace's repository config (.nodwyn/) is trusted" },
];

/** Every command a session offers, for `available_commands_update`: the agent's own, then its plugins'. */
export function availableCommands(plugins: readonly AgentCommandEntry[]): AvailableCommand[] {
  const contributed = plugins.map(({ command }) => ({ name: command.name, description: command.description, ...(command.hint ? { input: { hint: command.hint } } : {}) }));
  return [...BUILTIN_COMMANDS, ...contributed];
}

const COMMAND = /^\/([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/;

/** A prompt that is one of `known`: `/title Fix the parser` → `{ name: 'title', input: 'Fix the parser' }`. */
export function slashCommand(text: string, known: readonly AvailableCommand[]): { name: string; input: string } | undefined {
  const match = COMMAND.exec(text.trim());
  if (!match || !known.some((c) => c.name === match[1])) return undefined;
  return { name: match[1]!, input: (match[2] ?? '').trim() };
}

/** Whether a text reads as a slash command (`/name`, alone or before a space), not as a prompt like `/usr/bin is…`. */
export function isSlashCommand(text: string): boolean {
  return /^\/[a-z][a-z0-9_-]*(?:\s|$)/.test(text.trim());
}
