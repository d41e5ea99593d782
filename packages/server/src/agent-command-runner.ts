import { toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { titleFrom } from '@nodwyn/runtime';
import type { CommandContext } from './command-context.js';
import { costCommand } from './cost-command.js';
import { SERVER_PACKAGE, type ServerCode } from './errors.js';
import { modelCommand } from './model-command.js';
import { trustCommand } from './trust-command.js';

/** What a command answered: its text for the person, and the envelope when it failed. */
export interface CommandOutcome {
  readonly text: string;
  readonly envelope?: Envelope;
}

type Builtin = (ctx: CommandContext) => string | Promise<string>;

/** The agent's own commands (see `BUILTIN_COMMANDS` for what each says it does). */
const BUILTINS: Readonly<Record<string, Builtin>> = {
  title(ctx) {
    const title = titleFrom(ctx.input);
    if (title.length === 0) return 'Give the title after the command: /title Fix the parser.';
    ctx.scope.kernel.append(ctx.session, { type: 'session.titled', actor: 'user', payload: { title } });
    return `Title set: ${title}`;
  },
  tools(ctx) {
    const tools = ctx.scope.kernel.primitives.list().filter((p) => p.visibility === 'model');
    return tools.map((t) => `- ${t.name} (${t.tier}): ${t.description.split('\n')[0]}`).join('\n');
  },
  model: modelCommand,
  cost: costCommand,
  verify(ctx) {
    const report = ctx.scope.kernel.log.verify(ctx.session);
    if (report.ok) return `The log of this session verifies: ${report.events} events, each chained to the one before by its hash, and the chain matches its signed checkpoint.`;
    return `The log of this session does NOT verify: event ${report.seq}: ${report.problem} (${report.detail}). \`nodwyn log verify ${ctx.session}\` in a terminal says the same.`;
  },
  trust: trustCommand,
};

/**
 * Runs a slash command, the agent's own or a plugin's, to its text. Whatever a command throws becomes its
 * envelope and a message naming it, never a failed prompt: a plugin's broken command must not end the
 * person's session. The caller passes the text through the text layers before any client sees it.
 */
export async function runAgentCommand(name: string, ctx: CommandContext): Promise<CommandOutcome> {
  const builtin = BUILTINS[name];
  const entry = builtin ? undefined : ctx.scope.agentCommands().find((c) => c.command.name === name);
  const plugin = entry?.owner ?? SERVER_PACKAGE;
  try {
    if (builtin) return { text: await builtin(ctx) };
    if (!entry) return { text: `/${name} is no longer offered here (its plugin stopped).` };
    const text: unknown = await entry.command.run({ session: ctx.session, input: ctx.input, signal: ctx.signal, ...(ctx.turn ? { turn: ctx.turn } : {}) });
    if (typeof text !== 'string') throw new Error(`/${name} answered ${text === undefined ? 'nothing' : typeof text} instead of text`);
    return { text };
  } catch (error) {
    const envelope = toEnvelope(error, { operation: `/${name}`, plugin, code: 'COMMAND_FAILED' satisfies ServerCode });
    return { text: `/${name} failed (${envelope.code ?? envelope.category}): ${envelope.remediation}`, envelope };
  }
}
