import { codedErrors, type Category, type EnvelopeInit } from '@nodwyn/plugin-api';

/** The package name, stamped on every envelope this plugin raises. */
export const PLUGIN_NAME = '@nodwyn/plugin-tools-core';

/**
 * Every failure code this plugin raises, with the one category it always travels under. Keeping the pair
 * in one table means a code can never be raised under two categories by two different tools.
 */
export const ToolsErrorCode = {
  /** The `[tools]` section of the configuration does not validate. */
  CONFIG_INVALID: 'VALIDATION_FAILED',
  /** A path holds a NUL byte, which no file system accepts. */
  PATH_INVALID: 'VALIDATION_FAILED',
  /** A path (or glob pattern) points outside the workspace by its spelling: `..`, or an absolute path. */
  PATH_OUTSIDE_WORKSPACE: 'PERMISSION_DENIED',
  /** A path inside the workspace reaches outside it through a symlink (maybe a dangling one). */
  PATH_SYMLINK_ESCAPE: 'PERMISSION_DENIED',
  /** A path reaches one of nodwyn's own folders (a `.nodwyn/`, the data or config folder), by spelling or real path. */
  PATH_PROTECTED: 'PERMISSION_DENIED',
  /** Resolving a path's symlinks went round in a loop. */
  PATH_SYMLINK_LOOP: 'VALIDATION_FAILED',
  /** The file does not exist. */
  FILE_NOT_FOUND: 'NOT_FOUND',
  /** The directory to list or search does not exist. */
  DIRECTORY_NOT_FOUND: 'NOT_FOUND',
  /** A file tool was given a directory. */
  PATH_IS_DIRECTORY: 'VALIDATION_FAILED',
  /** A directory tool was given a file, or a parent in the path is a file. */
  PATH_NOT_DIRECTORY: 'VALIDATION_FAILED',
  /** The operating system refused access (EACCES, EPERM, EROFS). */
  FS_ACCESS_DENIED: 'PERMISSION_DENIED',
  /** Any other file system failure (disk full, I/O error). */
  FS_OPERATION_FAILED: 'PRECONDITION_FAILED',
  /** read_file or edit_file was given a FIFO, socket or device. */
  FILE_NOT_REGULAR: 'VALIDATION_FAILED',
  /** read_file or edit_file was given a binary file. */
  FILE_IS_BINARY: 'VALIDATION_FAILED',
  /** The file is larger than read_file and edit_file load. */
  FILE_TOO_LARGE: 'LIMIT_EXCEEDED',
  /** start_line/end_line do not describe lines of the file. */
  LINE_RANGE_INVALID: 'VALIDATION_FAILED',
  /** edit_file's old_string does not occur in the file. */
  EDIT_NOT_FOUND: 'NOT_FOUND',
  /** edit_file's old_string occurs more than once and replace_all was not set. */
  EDIT_NOT_UNIQUE: 'VALIDATION_FAILED',
  /** edit_file's old_string and new_string are the same. */
  EDIT_NO_CHANGE: 'VALIDATION_FAILED',
  /** grep's pattern is not a valid JavaScript regular expression. */
  GREP_INVALID_REGEX: 'VALIDATION_FAILED',
  /** A directory walk stopped because the call was cancelled. */
  TOOL_CANCELLED: 'CANCELLED',
  /** bash could not be started. */
  SHELL_SPAWN_FAILED: 'PRECONDITION_FAILED',
  /** The command ran past its timeout; its process group was killed. */
  SHELL_TIMEOUT: 'TIMEOUT',
  /** The call was cancelled while the command ran; its process group was killed. */
  SHELL_CANCELLED: 'CANCELLED',
} as const satisfies Record<string, Category>;

/** A failure code of this plugin. */
export type ToolsErrorCode = keyof typeof ToolsErrorCode;

/** What a tool states about a failure; the category and plugin come from the code. */
export type ToolsErrorInit = Omit<EnvelopeInit, 'category' | 'code' | 'plugin'>;

/** Builds the envelope error for `code`; `cause` keeps the foreign error it wraps. */
export const toolsError = codedErrors(PLUGIN_NAME, ToolsErrorCode).error;

/** Throws the envelope error for `code`. */
export function toolsFail(code: ToolsErrorCode, init: ToolsErrorInit): never {
  throw toolsError(code, init);
}

/** Stops a long walk once the call's signal fired. */
export function throwIfCancelled(signal: AbortSignal, operation: string): void {
  if (signal.aborted) {
    toolsFail('TOOL_CANCELLED', { operation, remediation: `${operation} was cancelled; nothing else needs doing.` });
  }
}
