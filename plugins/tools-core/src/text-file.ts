import { readFile, writeFile } from 'node:fs/promises';
import type { PrimitiveCallContext } from '@nodwyn/plugin-api';
import { toolsFail } from './errors.js';
import { fsError } from './fs-errors.js';
import { statExisting, type WorkspacePath } from './workspace-path.js';

/** Largest file read_file, edit_file and grep load whole; larger ones are for shell tools. */
export const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

/** git's rule, and ripgrep's: a NUL byte in the first 8000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;
/**
 * Above this share of control bytes in the sniffed head, a file is binary even without a NUL. Random key
 * bytes have no NUL in 88 % of 32-byte files, and a key must never be printed as if it were text.
 */
const MAX_CONTROL_SHARE = 0.1;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** C0 controls that text files hold: tab, newline, vertical tab, form feed, carriage return, escape (colour codes). */
function isTextControl(byte: number): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0b || byte === 0x0c || byte === 0x0d || byte === 0x1b;
}

/** True when `content` looks binary: a NUL byte, bytes that are not UTF-8, or many control bytes. */
export function isBinary(content: Uint8Array): boolean {
  const head = content.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return true;
  let controls = 0;
  for (const byte of head) if ((byte < 0x20 && !isTextControl(byte)) || byte === 0x7f) controls++;
  if (controls > head.length * MAX_CONTROL_SHARE) return true;
  try {
    strictUtf8.decode(content);
    return false;
  } catch {
    // Not UTF-8: a key, an image or an archive, never text read_file could show faithfully.
    return true;
  }
}

/**
 * Reads a text file whole, refusing directories, binary files and files too large to load, each with its
 * own envelope so the model knows which other tool to reach for.
 */
export async function readTextFile(target: WorkspacePath, operation: string): Promise<string> {
  const stats = await statExisting(target, operation, 'file');
  const failure = { operation, failed_parameter: '$.path', received_value: target.display };
  if (stats.isDirectory()) {
    toolsFail('PATH_IS_DIRECTORY', { ...failure, remediation: `${target.display} is a directory; use list_dir to see what it holds.` });
  }
  if (!stats.isFile()) {
    // A FIFO or a device would block the read or never end.
    toolsFail('FILE_NOT_REGULAR', { ...failure, remediation: `${target.display} is not a regular file (a FIFO, socket or device); ${operation} reads regular files only.` });
  }
  if (stats.size > MAX_TEXT_FILE_BYTES) {
    toolsFail('FILE_TOO_LARGE', {
      ...failure,
      expected: `at most ${MAX_TEXT_FILE_BYTES} bytes`,
      remediation: `${target.display} has ${stats.size} bytes, more than ${operation} loads; use grep to find the lines you need, or shell (sed -n '100,200p').`,
    });
  }
  const content = await readFile(target.real).catch((error: unknown) => {
    throw fsError(error, { operation, display: target.display, expects: 'file' });
  });
  if (isBinary(content)) {
    toolsFail('FILE_IS_BINARY', {
      ...failure,
      remediation: `${target.display} is a binary file and ${operation} handles text only; inspect it with shell (file, xxd | head) if you must.`,
    });
  }
  return content.toString('utf8');
}

/**
 * The text of a checked path: from the front end's files when the call has them (an editor's buffer,
 * unsaved changes included), else from the disk (`readTextFile`). Either way the same size and binary
 * rules hold for what comes back.
 */
export async function readWorkspaceText(target: WorkspacePath, operation: string, context: Pick<PrimitiveCallContext, 'files' | 'signal'>): Promise<string> {
  if (!context.files) return readTextFile(target, operation);
  const text = await context.files.readText(target.real, context.signal).catch((error: unknown) => {
    throw fsError(error, { operation, display: target.display, expects: 'file' });
  });
  const failure = { operation, failed_parameter: '$.path', received_value: target.display };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_TEXT_FILE_BYTES) {
    toolsFail('FILE_TOO_LARGE', {
      ...failure,
      expected: `at most ${MAX_TEXT_FILE_BYTES} bytes`,
      remediation: `${target.display} has ${bytes.length} bytes, more than ${operation} loads; use grep to find the lines you need, or shell (sed -n '100,200p').`,
    });
  }
  if (isBinary(bytes)) {
    toolsFail('FILE_IS_BINARY', { ...failure, remediation: `${target.display} is a binary file and ${operation} handles text only; inspect it with shell (file, xxd | head) if you must.` });
  }
  return text;
}

/** Writes the whole text of a checked path: through the front end's files when the call has them, else to the disk. */
export async function writeWorkspaceText(target: WorkspacePath, content: string, operation: string, context: Pick<PrimitiveCallContext, 'files' | 'signal'>): Promise<void> {
  const written = context.files ? context.files.writeText(target.real, content, context.signal) : writeFile(target.real, content, 'utf8');
  await written.catch((error: unknown) => {
    throw fsError(error, { operation, display: target.display, expects: 'file' });
  });
}
