import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoOf, keychainFail } from './errors.js';

/**
 * Replaces `path` with `text` so that a crash leaves either the old file or the new one, never a torn
 * one: a fresh temp file (0600, `wx`, in the same directory), fsync, rename, then fsync of the directory
 * so the rename itself survives a power loss. On failure the temp file is removed and the old file is intact.
 */
export function writeFileAtomic(path: string, text: string): void {
  // A random name with `wx` never reuses a leftover temp file, whose mode someone else may have chosen.
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeDurably(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    writeFailed(path, error, 'the previous keychain is unchanged');
  }
  syncDirectory(dirname(path));
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, 'wx', 0o600);
  try {
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncDirectory(dir: string): void {
  // Windows cannot open a directory for fsync; its rename is already durable enough for NTFS.
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    writeFailed(dir, error, 'the new keychain is in place but may not survive a power loss');
  }
}

function writeFailed(path: string, error: unknown, outcome: string): never {
  return keychainFail(
    'KEYCHAIN_WRITE_FAILED',
    {
      category: 'PRECONDITION_FAILED',
      received_value: `${path} (${errnoOf(error)})`,
      remediation: `The keychain could not be written at ${path} (${errnoOf(error)}); ${outcome}. Check free space and permissions of the data directory, then retry.`,
    },
    error,
  );
}
