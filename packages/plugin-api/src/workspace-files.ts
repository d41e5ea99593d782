/**
 * The workspace's files as a front end serves them: an editor's buffers, unsaved changes included (ACP's
 * `fs/read_text_file` and `fs/write_text_file`). File tools use it for the read and the write of a file
 * they already checked (workspace confinement, nodwyn's protected folders, `.git/` confirmations, size), so
 * it sees only absolute real paths inside the workspace. A failure is an `EnvelopeError`.
 */
export interface WorkspaceFiles {
  /** The file's whole text as the front end holds it. */
  readText(path: string, signal: AbortSignal): Promise<string>;
  /** Replaces the file's whole text (creating it when missing). */
  writeText(path: string, content: string, signal: AbortSignal): Promise<void>;
}
