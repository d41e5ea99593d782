/** A slash command the TUI answers itself, without the agent. */
export interface LocalCommand {
  readonly name: string;
  readonly description: string;
  /** What follows the name, when it takes something. */
  readonly hint?: string;
}

/** The TUI's own commands; every other `/name` goes to the agent as the prompt text. */
export const LOCAL_COMMANDS: readonly LocalCommand[] = [
  { name: 'help', description: 'Keys and commands' },
  { name: 'new', description: 'Start a new session' },
  { name: 'sessions', description: "This workspace's sessions: titles, state, last activity" },
  { name: 'resume', description: 'Continue another session (a list without an id)', hint: '[id]' },
  { name: 'fork', description: 'Continue in a copy of this session, from its latest event or from a seq', hint: '[seq]' },
  { name: 'quit', description: 'Leave nodwyn (the session stays in the log)' },
];

/** `/name rest` → `{ name, input }`; anything else → undefined. */
export function parseSlash(text: string): { name: string; input: string } | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return match ? { name: match[1]!.toLowerCase(), input: (match[2] ?? '').trim() } : undefined;
}

/** Whether `name` is one of the TUI's own commands. */
export function isLocalCommand(name: string): boolean {
  return LOCAL_COMMANDS.some((c) => c.name === name);
}
