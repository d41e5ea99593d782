import { LOCAL_COMMANDS } from '../commands/local-commands.js';
import { KEYS } from '../commands/keys.js';
import { sessionRows } from './session-rows.js';
import type { TuiController } from './tui-controller.js';

function help(controller: TuiController): void {
  const agent = controller.store.getState().commands;
  const names = [...LOCAL_COMMANDS, ...agent].map((c) => (c.hint ? `${c.name} ${c.hint}` : c.name));
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const line = (c: { name: string; description: string; hint?: string }): string => `  /${(c.hint ? `${c.name} ${c.hint}` : c.name).padEnd(width)}${c.description}`;
  const lines = [
    'Keys',
    ...KEYS.map(([keys, what]) => `  ${keys.padEnd(18)}${what}`),
    'Commands',
    ...LOCAL_COMMANDS.map(line),
    ...(agent.length > 0 ? ['Commands of the agent', ...agent.map(line)] : []),
  ];
  controller.notice(lines.join('\n'));
}

async function fork(controller: TuiController, input: string): Promise<void> {
  const from = controller.sessionId;
  if (!from) return controller.notice('There is no session to fork yet: send a prompt first.', 'warn');
  const seq = input ? Number.parseInt(input, 10) : undefined;
  if (seq !== undefined && (!Number.isInteger(seq) || seq < 1)) return controller.notice(`/fork takes a seq (a positive number), not "${input}".`, 'warn');
  const { sessionId } = await controller.client.fork(from, seq);
  await controller.open(sessionId);
  controller.notice(`Forked from ${from}${seq !== undefined ? ` at seq ${seq}` : ''}.`, 'dim');
}

/** Runs one of the TUI's own slash commands (`LOCAL_COMMANDS`). */
export async function runLocalCommand(controller: TuiController, name: string, input: string): Promise<void> {
  switch (name) {
    case 'help':
      return help(controller);
    case 'new':
      return controller.leave();
    case 'sessions': {
      const sessions = await controller.sessions();
      return controller.notice(sessions.length === 0 ? 'No sessions in this workspace yet.' : ['Sessions in this workspace', ...sessionRows(sessions, Date.now())].join('\n'));
    }
    case 'resume':
      return input ? controller.open(input) : controller.showPicker();
    case 'fork':
      return fork(controller, input);
    case 'quit':
      return controller.quit(0);
  }
}
