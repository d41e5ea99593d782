import { definePrimitive, z } from '@nodwyn/plugin-api';
import { toolsFail } from './errors.js';
import { cutLine, linesWithin, NOTE_RESERVE, splitLines } from './output.js';
import { readWorkspaceText } from './text-file.js';
import { resolveInWorkspace } from './workspace-path.js';

/** Lines shown when the model gives no end_line: enough to read most files, few enough not to flood it. */
export const DEFAULT_READ_LINES = 2000;

const ReadFileInput = z
  .object({
    path: z.string().min(1).describe('File to read, relative to the workspace root (e.g. "src/index.ts").'),
    start_line: z.number().int().min(1).optional().describe('First line to show, 1-based. Default 1.'),
    end_line: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Last line to show, 1-based and inclusive. Default: ${DEFAULT_READ_LINES} lines from start_line, or the end of the file.`),
  })
  .strict();

type ReadFileArgs = z.infer<typeof ReadFileInput>;

/** `    12\ttext`: the number right-aligned in six columns, then a tab, as `cat -n` prints. */
export function numberLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6)}\t${cutLine(text)}`;
}

/** read_file: a text file's lines, numbered, within a range and the output cap. */
export const readFileTool = definePrimitive({
  name: 'read_file',
  description:
    'Read a text file of the workspace. Each line is shown as its 1-based number, right-aligned in six ' +
    'columns, a tab, then the text (the number and tab are not part of the file: leave them out of ' +
    'edit_file\'s old_string). Shows up to 2000 lines by default; when more remain, a final line in ' +
    'square brackets says which start_line to read next. Lines over 2000 characters are cut. Binary ' +
    'files and nodwyn\'s own folders (.nodwyn/, its data and config folders) are refused.',
  input: ReadFileInput,
  tier: 'read',
  visibility: 'model',
  kind: 'read',
  async handler(args, context) {
    const target = await resolveInWorkspace(context, args.path, 'read_file');
    const text = await readWorkspaceText(target, 'read_file', context);
    const lines = splitLines(text);
    if (lines.length === 0) return { content: '[empty file]', data: { path: target.display, totalLines: 0 } };
    // What the numbered lines do not show, so a host caller (a sandbox's readFile) can rebuild the text exactly.
    const layout = { finalNewline: text.endsWith('\n'), crlf: !/(^|[^\r])\n/.test(text) && text.includes('\r\n') };
    const start = args.start_line ?? 1;
    const end = lastLine(args, start, lines.length);
    const numbered = lines.slice(start - 1, end).map((text, index) => numberLine(start + index, text));
    const shown = linesWithin(numbered, context.outputCap - NOTE_RESERVE);
    const shownEnd = start + shown - 1;
    const body = numbered.slice(0, shown);
    if (shown === 0) {
      body.push(`[output cap reached: line ${start} alone is larger than the output cap; view it with shell (cut -c1-500)]`);
    } else if (shownEnd < end) {
      body.push(`[output cap reached: showed lines ${start}–${shownEnd} of ${lines.length}; continue with start_line=${shownEnd + 1}]`);
    } else if (args.end_line === undefined && end < lines.length) {
      body.push(`[showed lines ${start}–${end} of ${lines.length}; continue with start_line=${end + 1}]`);
    }
    return {
      content: body.join('\n'),
      data: { path: target.display, startLine: start, endLine: shownEnd, totalLines: lines.length, ...layout },
    };
  },
});

/** The last line to show: end_line (clamped to the file), or the default window. */
function lastLine(args: ReadFileArgs, start: number, total: number): number {
  const failure = { operation: 'read_file', expected: `1 ≤ start_line ≤ end_line, start_line ≤ ${total}` };
  if (start > total) {
    toolsFail('LINE_RANGE_INVALID', {
      ...failure,
      failed_parameter: '$.start_line',
      received_value: start,
      remediation: `The file has ${total} lines; pass a start_line of at most ${total}.`,
    });
  }
  if (args.end_line !== undefined && args.end_line < start) {
    toolsFail('LINE_RANGE_INVALID', {
      ...failure,
      failed_parameter: '$.end_line',
      received_value: args.end_line,
      remediation: `end_line (${args.end_line}) is before start_line (${start}); pass an end_line of at least ${start}.`,
    });
  }
  return Math.min(args.end_line ?? start + DEFAULT_READ_LINES - 1, total);
}
