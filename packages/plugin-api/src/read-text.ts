import type { CodedInit } from './coded-errors.js';
import { ContractCodes } from './contract-codes.js';
import { EnvelopeError } from './envelope.js';
import type { ApplyResult } from './primitive.js';

/** How read_file prints a line: the number right-aligned in six columns, a tab, the text. */
const NUMBERED = /^ *(\d+)\t(.*)$/;
/** The note read_file ends a page with when more lines follow. */
const CONTINUE = /continue with start_line=(\d+)\]$/;
/** read_file's mark on a line it cut (lines over 2000 characters). */
const CUT_LINE = /… \[\d+ more characters\]$/;
const LONGEST_LINE = 2000;
/** Pages of read_file one readFile may ask for: 16 MiB files at 2000 lines a page fit well inside. */
const MAX_PAGES = 10_000;

/** The call readFile makes: `apply` with the run's taint added. */
export type ApplyWithTaint = (name: string, args: unknown) => Promise<ApplyResult>;

/** The two ways a whole-file read through read_file can fail, each a code of the runner that asks. */
export type ReadTextCode = typeof ContractCodes.SANDBOX_DOOR_ANSWER_INVALID | typeof ContractCodes.SANDBOX_READ_LINE_TOO_LONG;

/** The runner's own envelope builder (its `codedErrors(…).error`), so the envelope names that runner. */
export type ReadTextFailure = (code: ReadTextCode, init: CodedInit) => EnvelopeError;

/**
 * A whole text file through read_file, page by page, with the line numbers taken off. read_file shows
 * lines without their ending; its `data` says whether the file ends in a newline and uses CRLF, so the
 * text comes back as it is on disk (a file mixing endings comes back with `\n`). A line read_file had to
 * cut cannot be returned exactly, so it is refused rather than returned altered. The sandbox runners' file
 * doors (QuickJS, Deno) read through it, so what sandboxed code reads passes the guard like any read_file.
 */
export async function readText(apply: ApplyWithTaint, path: string, door: string, fail: ReadTextFailure): Promise<string> {
  const lines: string[] = [];
  let start = 1;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await apply('read_file', { path, start_line: start });
    if (!result.ok) throw new EnvelopeError(result.envelope);
    if (result.content === '[empty file]') return '';
    let next: number | undefined;
    for (const line of result.content.split('\n')) {
      const numbered = NUMBERED.exec(line);
      if (numbered) {
        const text = numbered[2]!;
        if (text.length > LONGEST_LINE && CUT_LINE.test(text)) throw tooLong(fail, door, path, Number(numbered[1]));
        lines.push(text);
        continue;
      }
      if (line.startsWith('[output cap reached: line ')) throw tooLong(fail, door, path, start);
      const more = CONTINUE.exec(line);
      if (more) next = Number(more[1]);
    }
    if (result.truncated) throw unreadable(fail, door, path, 'the kernel cut its answer');
    if (next === undefined) return rebuild(lines, result.data);
    start = next;
  }
  throw unreadable(fail, door, path, `it took more than ${MAX_PAGES} pages`);
}

function rebuild(lines: readonly string[], data: unknown): string {
  const layout = (typeof data === 'object' && data !== null ? data : {}) as { finalNewline?: unknown; crlf?: unknown };
  const eol = layout.crlf === true ? '\r\n' : '\n';
  return lines.join(eol) + (layout.finalNewline === false ? '' : eol);
}

function unreadable(fail: ReadTextFailure, door: string, path: string, why: string): EnvelopeError {
  return fail(ContractCodes.SANDBOX_DOOR_ANSWER_INVALID, {
    operation: door,
    received_value: path,
    remediation: `${door} could not read ${path} whole through read_file (${why}); read a smaller file.`,
  });
}

function tooLong(fail: ReadTextFailure, door: string, path: string, line: number): EnvelopeError {
  return fail(ContractCodes.SANDBOX_READ_LINE_TOO_LONG, {
    operation: door,
    failed_parameter: '$.path',
    received_value: path,
    expected: `lines of at most ${LONGEST_LINE} characters`,
    remediation: `${path} has a line (${line}) longer than ${LONGEST_LINE} characters, which ${door} cannot return exactly; split the file into shorter lines, or read another file.`,
  });
}
