import { DEFAULT_BUDGETS, EventLog, KERNEL_STREAM, SessionStore, SessionWindow } from '@nodwyn/kernel';
import { EnvelopeError, type WindowEntry } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { existsSync } from 'node:fs';
import { budgetsFrom, checkDataDir, configPath, dataDir, latestTitle, loadConfig, logPaths, withRuntime } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { CliCodes } from '../errors.js';
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

/**
 * `nodwyn log rebuild-window ID`: what the model would see at the session's next call, rebuilt from the
 * log: the system prompt (the session's `context.added` parts) and the window, with its summaries, fitted
 * to the configured `budgets.window_tokens` less the system prompt's tokens, as the floor fits it (before
 * any compaction the next turn makes). Reads only the window's end of the log.
 */
export function logRebuildWindowCommand(id: string, options: { json?: boolean }): Promise<number> {
  return guarded(options.json, async () =>
    withLog((log, sessions) => {
      sessions.get(id);
      const budgets = { ...DEFAULT_BUDGETS, ...budgetsFrom(loadConfig(configPath())) };
      const system = sessions.lineageOf(id, ['context.added']).map((e) => {
        const p = e.payload as { id?: unknown; source?: unknown; text?: unknown; tokens?: unknown };
        return { seq: e.seq, id: String(p.id), source: String(p.source), tokens: Number(p.tokens) || 0, text: String(p.text ?? '') };
      });
      const systemTokens = system.reduce((sum, part) => sum + part.tokens, 0);
      const view = SessionWindow.open(log, id, { windowTokens: budgets.windowTokens - systemTokens, answerTokens: budgets.answerTokens }).view();
      if (options.json) {
        const entries = view.entries.map((e) => ({ kind: e.kind, session: e.session, from_seq: e.fromSeq, to_seq: e.toSeq, tokens: e.tokens, message: e.message }));
        process.stdout.write(`${jsonText({ session: id, system, system_tokens: systemTokens, tokens: view.tokens, budget: view.budget, window_tokens: budgets.windowTokens, entries })}\n`);
        return EXIT.OK;
      }
      const rows = [
        ...system.map((part) => [String(part.seq), 'system', String(part.tokens), `${part.id} from ${part.source}`]),
        ...view.entries.map((e) => [seqs(e, id), e.kind, String(e.tokens), preview(e)]),
      ];
      const brief = system.length > 0 ? `a system prompt of ${system.length} part(s), ~${systemTokens} tokens, and ` : '';
      process.stdout.write(forTerminal(`window of ${id}: ${brief}${view.entries.length} messages, ~${view.tokens} tokens (compaction budget ${view.budget} of ${budgets.windowTokens})\n`));
      process.stdout.write(forTerminal(formatTable(['SEQ', 'KIND', 'TOKENS', 'MESSAGE'], rows)));
      return EXIT.OK;
    }),
  );
}

/**
 * `nodwyn log revoke-summary ID SEQ`: appends `summary.revoked { seq }`, so the window no longer shows the
 * summary logged at SEQ (its span's events come back, or the next turn summarises them anew). A write: it
 * boots the plugins and appends through the kernel's log stages.
 */
export function logRevokeSummaryCommand(id: string, seq: number): Promise<number> {
  return guarded(false, () =>
    withRuntime(cliBoot(), async ({ kernel }) => {
      kernel.sessions.get(id);
      const event = Number.isInteger(seq) && seq > 0 ? kernel.log.read(id, seq, seq)[0] : undefined;
      if (event?.type !== 'summary.added') {
        throw new EnvelopeError({
          category: 'VALIDATION_FAILED',
          code: CliCodes.SUMMARY_NOT_FOUND,
          failed_parameter: '$.seq',
          received_value: seq,
          expected: 'the seq of a summary.added event of the session',
          remediation: `Event ${seq} of ${id} is no summary. \`nodwyn log rebuild-window ${id}\` shows the summaries in the window with their spans; \`nodwyn log show ${id}\` every event.`,
        });
      }
      kernel.append(id, { type: 'summary.revoked', actor: 'user', payload: { seq } });
      process.stdout.write(`summary ${seq} revoked: events ${String(event.payload.from_seq)}–${String(event.payload.to_seq)} are no longer summarised\n`);
      return EXIT.OK;
    }),
  );
}

// A fork's window begins with its parent's events: those are named with their session.
function seqs(entry: WindowEntry, session: string): string {
  const at = entry.fromSeq === entry.toSeq ? String(entry.fromSeq) : `${entry.fromSeq}–${entry.toSeq}`;
  return entry.session === session ? at : `${entry.session}@${at}`;
}

function preview(entry: WindowEntry): string {
  const m = entry.message;
  const calls = m.role === 'assistant' ? m.toolCalls.map((c) => ` → ${c.name}`).join('') : '';
  const text = m.text.replace(/\s+/g, ' ');
  return `${text.length > 100 ? `${text.slice(0, 100)}…` : text}${calls}`;
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
