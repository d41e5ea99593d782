import { EventLog, KERNEL_STREAM, SessionStore } from '@nodwyn/kernel';
import type { LogEvent } from '@nodwyn/protocol';
import { existsSync } from 'node:fs';
import { checkDataDir, dataDir, latestTitle, logPaths, withRuntime } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { EXIT } from '../exit-codes.js';
import { formatTable } from '../output.js';
import { forTerminal, jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';

// The log commands need no plugins: they open the log alone, which keeps them fast and usable even when
// a plugin is broken. They only read: a write without the plugins would skip the log stages.
function withLog<T>(body: (log: EventLog, sessions: SessionStore) => T): T {
  const dir = dataDir();
  checkDataDir(dir);
  const paths = logPaths(dir);
  // Without a database there is nothing to show: an empty in-memory log answers without creating files.
  const log = existsSync(paths.dbPath) ? EventLog.open({ path: paths.dbPath, keyPath: paths.keyPath }) : EventLog.open({ path: ':memory:', key: Buffer.alloc(32) });
  try {
    return body(log, new SessionStore(log, (session, draft) => log.append(session, draft)));
  } finally {
    log.close();
  }
}

/** `nodwyn log list`: every session, newest activity first, each with its latest title. */
export function logListCommand(options: { json?: boolean }): Promise<number> {
  return guarded(options.json, async () =>
    withLog((log, sessions) => {
      const list = sessions.list().map((s) => {
        const title = latestTitle(log, s.id) ?? s.title;
        return title === undefined ? s : { ...s, title };
      });
      if (options.json) process.stdout.write(`${jsonText(list)}\n`);
      else if (list.length === 0) process.stdout.write('no sessions yet\n');
      else {
        const rows = list.map((s) => [s.id, s.updated, String(s.events), s.forkedFrom ? `fork of ${s.forkedFrom.session}@${s.forkedFrom.seq}` : '', s.workspace, s.title ?? '']);
        process.stdout.write(formatTable(['SESSION', 'UPDATED', 'EVENTS', 'ORIGIN', 'WORKSPACE', 'TITLE'], rows));
      }
      return EXIT.OK;
    }),
  );
}

/** `nodwyn log show ID`. */
export function logShowCommand(id: string, options: { json?: boolean }): Promise<number> {
  return guarded(options.json, async () =>
    withLog((log, sessions) => {
      if (id !== KERNEL_STREAM) sessions.get(id);
      const events = log.read(id);
      if (options.json) process.stdout.write(events.map((e) => `${jsonText(e)}\n`).join(''));
      else process.stdout.write(formatTable(['SEQ', 'TIME', 'TYPE', 'ACTOR', 'SUMMARY'], events.map((e) => [String(e.seq), e.ts, e.type, e.actor, summary(e)])));
      return EXIT.OK;
    }),
  );
}

/** `nodwyn log verify [ID]`: exit 0 when intact, 1 naming the first bad event. */
export function logVerifyCommand(id: string | undefined): Promise<number> {
  return guarded(false, async () =>
    withLog((log, sessions) => {
      // Verify first: a session deleted whole is a verification failure (the signed index still names it).
      // An id that verifies nothing was never there, and saying "intact" for it would vouch for it.
      const report = log.verify(id);
      if (report.ok && report.sessions === 0 && id !== undefined && id !== KERNEL_STREAM) sessions.get(id);
      if (report.ok) {
        process.stdout.write(`log intact: ${report.sessions} session(s), ${report.events} event(s) verified\n`);
        return EXIT.OK;
      }
      process.stdout.write(forTerminal(`log verification FAILED: session ${report.session}, seq ${report.seq}: ${report.problem} (${report.detail})\n`));
      return EXIT.CHECK_FAILED;
    }),
  );
}

/** `nodwyn fork ID [--at SEQ]`: a write, so it boots the plugins and appends through the kernel's log stages. */
export function forkCommand(id: string, options: { at?: number }): Promise<number> {
  return guarded(false, () =>
    withRuntime(cliBoot(), async ({ kernel }) => {
      process.stdout.write(`${kernel.sessions.fork(id, options.at)}\n`);
      return EXIT.OK;
    }),
  );
}

function summary(event: LogEvent): string {
  const p = event.payload as Record<string, unknown>;
  const text = (value: unknown) => {
    const s = String(value ?? '').replace(/\s+/g, ' ');
    return s.length > 80 ? `${s.slice(0, 80)}…` : s;
  };
  switch (event.type) {
    case 'message.user':
      return text(p.text);
    case 'message.assistant': {
      const calls = (p.tool_calls as { name: string }[] | undefined) ?? [];
      return [text(p.text), ...calls.map((c) => `→ ${c.name}`)].filter(Boolean).join(' ');
    }
    case 'tool.completed':
      return `${String(p.name)}: ${text(p.content)}`;
    case 'tool.failed':
    case 'tool.denied': {
      const env = p.envelope as { category?: string; code?: string } | undefined;
      return `${String(p.name)}: ${env?.category ?? ''} ${env?.code ?? ''}`;
    }
    case 'turn.ended':
      return String(p.reason);
    case 'context.added':
      return `${String(p.id)} from ${text(p.source)} (${String(p.tokens)} tokens)`;
    default:
      return text(JSON.stringify(p));
  }
}
