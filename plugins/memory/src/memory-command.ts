import type { CliCommand } from '@nodwyn/plugin-api';
import type { MemoryState } from './memory-state.js';

const USAGE = 'usage: nodwyn memory rebuild [--json]';

/**
 * `nodwyn memory rebuild`: deletes this workspace's indexes and builds them again, from the log (every
 * session of this project) and from the workspace's files. Nothing is lost by it: the indexes are derived.
 */
export function memoryCommand(state: () => MemoryState, workspace: string): CliCommand {
  return {
    name: 'memory',
    description: "Rebuild the memory indexes of this workspace (its sessions' events and its files' words): memory rebuild.",
    arguments: ['action'],
    options: [{ flags: '--json', description: 'print what was indexed as JSON' }],
    async run({ args, options, io }) {
      if (args[0] !== 'rebuild') {
        io.error(`nodwyn memory: unknown action ${JSON.stringify(args[0] ?? '')}\n${USAGE}\n`);
        return 2;
      }
      const memory = state();
      memory.sessions.reset();
      const sessions = memory.projectSessions();
      let events = 0;
      for (const session of sessions) events += memory.sessions.catchUp(session).length;
      memory.repo.reset();
      const pass = await memory.repo.pass();
      const report = { workspace, sessions: sessions.length, events, files: memory.repo.index.files, checked: pass.checked, ms: Math.round(pass.ms) };
      io.write(
        options.json === true
          ? `${JSON.stringify(report)}\n`
          : `Rebuilt the memory indexes of ${workspace}: ${plural(report.events, 'event')} of ${plural(report.sessions, 'session')}, ${report.files} of ${plural(report.checked, 'file')} indexed as text (${report.ms} ms).\n`,
      );
      return 0;
    },
  };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
