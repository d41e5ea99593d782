import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { definePrimitive, z } from '@nodwyn/plugin-api';
import { editEffect } from './effects.js';
import { toolsFail } from './errors.js';
import { errnoOf, fsError } from './fs-errors.js';
import { byteLength } from './output.js';
import { writeWorkspaceText } from './text-file.js';
import { resolveInWorkspace } from './workspace-path.js';

const WriteFileInput = z
  .object({
    path: z.string().min(1).describe('File to write, relative to the workspace root. Missing parent directories are created.'),
    content: z.string().describe('The complete new content of the file; it replaces whatever the file held.'),
  })
  .strict();

/** write_file: creates or replaces a whole file. */
export const writeFileTool = definePrimitive({
  name: 'write_file',
  description:
    'Create a file, or replace all of an existing one, with the given content; missing parent directories ' +
    'are created. Answers whether the file was created or overwritten and how many bytes were written. To ' +
    'change part of an existing file, use edit_file. A write into .git/ needs the user\'s confirmation; ' +
    'nodwyn\'s own folders (.nodwyn/, its data and config folders) are refused.',
  input: WriteFileInput,
  tier: 'mutate',
  visibility: 'model',
  kind: 'edit',
  effect: (args, scope) => editEffect(scope.workspace, args.path),
  async handler(args, context) {
    const target = await resolveInWorkspace(context, args.path, 'write_file');
    const fail = (error: unknown) => {
      throw fsError(error, { operation: 'write_file', display: target.display, expects: 'file' });
    };
    const before = await stat(target.real).catch((error: unknown) => (errnoOf(error) === 'ENOENT' ? undefined : fail(error)));
    if (before?.isDirectory()) {
      toolsFail('PATH_IS_DIRECTORY', {
        operation: 'write_file',
        failed_parameter: '$.path',
        received_value: target.display,
        remediation: `${target.display} is a directory; pass the path of a file inside it.`,
      });
    }
    await mkdir(dirname(target.real), { recursive: true }).catch(fail);
    await writeWorkspaceText(target, args.content, 'write_file', context);
    const bytes = byteLength(args.content);
    const created = before === undefined;
    return {
      content: created
        ? `Created ${target.display} (${bytes} bytes written).`
        : `Overwrote ${target.display} (${bytes} bytes written; it had ${before.size} bytes).`,
      data: { path: target.display, bytes, created },
    };
  },
});
