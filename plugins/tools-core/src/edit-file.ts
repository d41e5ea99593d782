import { definePrimitive, z } from '@nodwyn/plugin-api';
import { closestLine } from './closest-line.js';
import { editEffect } from './effects.js';
import { toolsError, toolsFail } from './errors.js';
import { plural } from './output.js';
import { readWorkspaceText, writeWorkspaceText } from './text-file.js';
import { resolveInWorkspace, type WorkspacePath } from './workspace-path.js';

const EditFileInput = z
  .object({
    path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
    old_string: z
      .string()
      .min(1)
      .describe(
        'Exact text to replace, including whitespace and indentation, as the file holds it (copy it from ' +
          'read_file without the line-number prefix). Include enough surrounding lines to make it unique.',
      ),
    new_string: z.string().describe('Text to put in its place. Must differ from old_string.'),
    replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one. Default false.'),
  })
  .strict();

/** Most line numbers listed when old_string is not unique. */
const MAX_LISTED_LINES = 20;

/** edit_file: exact string replacement in one file. */
export const editFileTool = definePrimitive({
  name: 'edit_file',
  description:
    'Replace an exact string in a file. old_string must occur exactly once (or set replace_all); when it ' +
    'does not occur, or occurs several times, nothing is written and the error says why. Answers the line ' +
    'numbers of the replacements in the edited file. An edit inside .git/ needs the user\'s confirmation; ' +
    'nodwyn\'s own folders are refused.',
  input: EditFileInput,
  tier: 'mutate',
  visibility: 'model',
  kind: 'edit',
  effect: (args, scope) => editEffect(scope.workspace, args.path),
  async handler(args, context) {
    const target = await resolveInWorkspace(context, args.path, 'edit_file');
    const original = await readWorkspaceText(target, 'edit_file', context);
    if (args.old_string === args.new_string) {
      toolsFail('EDIT_NO_CHANGE', {
        operation: 'edit_file',
        failed_parameter: '$.new_string',
        remediation: 'old_string and new_string are the same, so the edit would change nothing; pass the new text in new_string.',
      });
    }
    const match = findMatch(original, args.old_string, args.new_string);
    if (match.offsets.length === 0) throw notFound(target, original, args.old_string);
    if (match.offsets.length > 1 && args.replace_all !== true) throw notUnique(target, original, match.offsets);
    const updated = replaceAt(original, match);
    await writeWorkspaceText(target, updated, 'edit_file', context);
    const shift = match.newText.length - match.oldText.length;
    const lines = lineNumbers(updated, match.offsets.map((offset, index) => offset + index * shift));
    const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
    return {
      content: `Edited ${target.display}: replaced ${plural(lines.length, 'occurrence')} at ${where}.`,
      data: { path: target.display, replacements: lines.length, lines },
    };
  },
});

interface Match {
  readonly oldText: string;
  readonly newText: string;
  /** Where each non-overlapping occurrence of `oldText` starts. */
  readonly offsets: readonly number[];
}

/**
 * Finds old_string as given; failing that, in a CRLF file, with its line ends written as CRLF. Models
 * write `\n` even for files that use `\r\n`, and read_file does not show the `\r`.
 */
function findMatch(text: string, oldString: string, newString: string): Match {
  const exact = { oldText: oldString, newText: newString, offsets: occurrences(text, oldString) };
  if (exact.offsets.length > 0 || !text.includes('\r\n') || oldString.includes('\r') || !oldString.includes('\n')) return exact;
  const crlf = (value: string) => value.replace(/\r?\n/g, '\r\n');
  const oldText = crlf(oldString);
  return { oldText, newText: crlf(newString), offsets: occurrences(text, oldText) };
}

function occurrences(text: string, needle: string): number[] {
  const offsets: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) offsets.push(at);
  return offsets;
}

/** Splices by offset: `String.replace` would read `$&` and `$1` in new_string as patterns. */
function replaceAt(text: string, match: Match): string {
  let result = '';
  let from = 0;
  for (const offset of match.offsets) {
    result += text.slice(from, offset) + match.newText;
    from = offset + match.oldText.length;
  }
  return result + text.slice(from);
}

/** 1-based line numbers of ascending offsets, in one pass. */
function lineNumbers(text: string, offsets: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let position = 0;
  for (const offset of offsets) {
    for (; position < offset; position++) if (text.charCodeAt(position) === 10) line++;
    lines.push(line);
  }
  return lines;
}

function notFound(target: WorkspacePath, text: string, oldString: string) {
  const near = closestLine(text, oldString);
  const hint = !near
    ? ''
    : near.exact
      ? ` Line ${near.line} matches its first line once whitespace is ignored: check the indentation and the lines after it.`
      : ` The closest line is ${near.line}: ${JSON.stringify(near.text)}.`;
  return toolsError('EDIT_NOT_FOUND', {
    operation: 'edit_file',
    failed_parameter: '$.old_string',
    received_value: oldString,
    remediation: `old_string does not occur in ${target.display}. Re-read the file with read_file and copy the text exactly, without the line-number prefix.${hint}`,
  });
}

function notUnique(target: WorkspacePath, text: string, offsets: readonly number[]) {
  const lines = lineNumbers(text, offsets.slice(0, MAX_LISTED_LINES));
  const more = offsets.length > MAX_LISTED_LINES ? ', …' : '';
  return toolsError('EDIT_NOT_UNIQUE', {
    operation: 'edit_file',
    failed_parameter: '$.old_string',
    expected: 'exactly one occurrence, or replace_all: true',
    remediation:
      `old_string occurs ${offsets.length} times in ${target.display} (lines ${lines.join(', ')}${more}). ` +
      'Add surrounding lines to old_string so it occurs once, or set replace_all to true to replace them all.',
  });
}
