import { isEnvelopeError, type EnvelopeError } from '@nodwyn/plugin-api';
import { toolsError } from './errors.js';

/** Where a file system error happened, for the message. */
export interface FsErrorContext {
  /** The tool, e.g. `read_file`. */
  readonly operation: string;
  /** The path as the model gave it, relative to the workspace. */
  readonly display: string;
  /** What the tool expected there; picks the not-found code and message. */
  readonly expects: 'file' | 'directory' | 'file or directory';
  /** The argument that named the path. */
  readonly param?: string;
}

/** The errno of a Node file system error, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Maps a Node file system error to this plugin's envelope; envelope errors pass through unchanged. */
export function fsError(error: unknown, context: FsErrorContext): EnvelopeError {
  if (isEnvelopeError(error)) return error;
  const { operation, display } = context;
  const init = (remediation: string) => ({ operation, failed_parameter: context.param ?? '$.path', received_value: display, remediation });
  switch (errnoOf(error)) {
    case 'ENOENT':
      return context.expects === 'directory'
        ? toolsError('DIRECTORY_NOT_FOUND', init(`No directory at ${display}. Check the path with list_dir.`), error)
        : toolsError('FILE_NOT_FOUND', init(`No ${context.expects} at ${display}. Check the path with list_dir or glob.`), error);
    case 'EISDIR':
      return toolsError('PATH_IS_DIRECTORY', init(`${display} is a directory; use list_dir to see what it holds.`), error);
    case 'ENOTDIR':
    // mkdir -p answers EEXIST when a part of the path it should create is a file.
    case 'EEXIST':
      return toolsError('PATH_NOT_DIRECTORY', init(`A part of ${display} is a file, not a directory; check the path with list_dir.`), error);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return toolsError('FS_ACCESS_DENIED', init(`The operating system refused ${operation} on ${display}; pick another path or ask the person to fix its permissions.`), error);
    case 'ELOOP':
      return toolsError('PATH_SYMLINK_LOOP', init(`The symlinks in ${display} form a loop; use a path without them.`), error);
    default:
      return toolsError('FS_OPERATION_FAILED', init(`${operation} failed on ${display}: ${error instanceof Error ? error.message : String(error)}.`), error);
  }
}
