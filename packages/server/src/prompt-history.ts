import { KERNEL_STREAM, type EventLog } from '@nodwyn/kernel';
import { isSlashCommand } from './slash-commands.js';

/** Seqs read per indexed range query while walking a session back from its head. */
const PAGE = 4096;
const TYPES = ['message.user'];

/**
 * The person's prompts in `workspace` (a real path), newest first, each once, at most `limit`: what an
 * editor's Up/Down history offers. Sessions are read newest activity first, each from its head backwards
 * with the log's indexed type reads, and the walk stops once `limit` prompts were found, so the cost
 * follows what is returned, not the size of the log. Slash commands are the agent's, not prompts.
 */
export function promptHistory(log: EventLog, workspace: string, limit: number): string[] {
  const seen = new Set<string>();
  const prompts: string[] = [];
  for (const row of log.sessions()) {
    if (row.id === KERNEL_STREAM || row.created_payload?.workspace !== workspace) continue;
    let to = log.lastSeqOf(row.id, TYPES);
    while (to !== undefined && to >= 1) {
      const from = Math.max(1, to - PAGE + 1);
      const page = log.readTypes(row.id, TYPES, from, to);
      for (let i = page.length - 1; i >= 0; i--) {
        const text = page[i]!.payload.text;
        if (typeof text !== 'string' || text.trim() === '' || isSlashCommand(text) || seen.has(text)) continue;
        seen.add(text);
        prompts.push(text);
        if (prompts.length >= limit) return prompts;
      }
      to = from - 1;
    }
  }
  return prompts;
}
