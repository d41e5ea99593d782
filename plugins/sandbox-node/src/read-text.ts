import type { ApplyResult } from '@nodwyn/plugin-api';
import { readFile } from 'node:fs/promises';
import type { DoorPath } from './door-path.js';
import { nodeError } from './errors.js';

/** A guarded call that answers only with success; failures arrive as thrown envelope errors. */
export type DoorApply = (name: string, args: unknown) => Promise<Extract<ApplyResult, { ok: true }>>;

/** read_file shows at most this many characters of a line, then says how many it left out. */
const READ_FILE_LINE_CHARS = 2000;
/** Asks read_file for every line up to its output cap; it pages when the file is larger. */
const ALL_LINES = 1_000_000_000;
const NUMBERED = /^ *(\d+)\t/;
const CONTINUE = /continue with start_line=(\d+)/;

interface Page {
  readonly lines: string[];
  readonly next?: number;
}

function tooLong(path: string, line: number) {
  return nodeError('SANDBOX_READ_LINE_TOO_LONG', {
    failed_parameter: '$.path',
    received_value: path,
    remediation: `Line ${line} of ${path} is longer than the ${READ_FILE_LINE_CHARS} characters read_file shows whole, so readFile cannot return the file exactly; read a file with shorter lines.`,
  });
}

function wasCut(text: string): boolean {
  const match = /… \[(\d+) more characters\]$/.exec(text);
  return match !== null && text.length === READ_FILE_LINE_CHARS + match[0].length;
}

/** One read_file answer: its numbered lines as text, and where the next page starts when there is one. */
function parsePage(content: string, start: number, path: string): Page {
  if (content === '[empty file]') return { lines: [] };
  const lines: string[] = [];
  let next: number | undefined;
  for (const line of content.split('\n')) {
    const numbered = NUMBERED.exec(line);
    if (numbered && next === undefined) {
      const text = line.slice(numbered[0].length);
      if (wasCut(text)) throw tooLong(path, Number(numbered[1]));
      lines.push(text);
    } else if (line.startsWith('[output cut by nodwyn')) {
      // The kernel's own cap cut the page mid-line: the last line may be partial, so read it again.
      lines.pop();
      next = start + lines.length;
    } else if (line.startsWith('[') && next === undefined) {
      const more = CONTINUE.exec(line);
      if (!more) throw tooLong(path, start + lines.length);
      next = Number(more[1]);
    }
  }
  return next === undefined ? { lines } : { lines, next };
}

/** The line endings of the file as it is on disk, one per line, as read_file splits it. */
function endingsOf(raw: string): string[] {
  const parts = raw.split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts.map((part, index) => `${part.endsWith('\r') ? '\r' : ''}${index < parts.length - 1 || raw.endsWith('\n') ? '\n' : ''}`);
}

/**
 * `nodwyn.readFile`: the file through the guarded `read_file` tool, so the read is checked, logged and
 * passes the text layers (a secret in it arrives as `[REDACTED <class>]`, and the run is tainted with its
 * class). read_file shows numbered lines, page by page; this puts the text back together and restores
 * the file's own line endings, which read_file does not show, from the file on disk (only its line
 * endings are taken from there; when redaction changed the number of lines, lines are joined with \n).
 */
export async function readWorkspaceText(apply: DoorApply, path: DoorPath): Promise<string> {
  const lines: string[] = [];
  for (let start = 1; ; ) {
    const result = await apply('read_file', { path: path.relative, start_line: start, end_line: ALL_LINES });
    const page = parsePage(result.content, start, path.relative);
    lines.push(...page.lines);
    if (page.next === undefined) break;
    if (page.next <= start) throw tooLong(path.relative, start);
    start = page.next;
  }
  const raw = await readFile(path.real, 'utf8').catch(() => undefined);
  if (raw === undefined) return lines.join('\n');
  const endings = endingsOf(raw);
  if (endings.length !== lines.length) return lines.join('\n') + (raw.endsWith('\n') ? '\n' : '');
  return lines.map((line, index) => line + endings[index]).join('');
}
