import { jsonPath, type z } from '@nodwyn/plugin-api';
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Why a JSON file did not parse against its schema: the key at fault (when one is) and what was expected. */
export interface JsonFileProblem {
  readonly parameter?: string;
  readonly expected: string;
}

/** `text` parsed as JSON and checked against `schema`, or what is wrong with it. */
export function parseJsonFile<S extends z.ZodType>(schema: S, text: string): { readonly data: z.infer<S> } | { readonly problem: JsonFileProblem } {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return { data: parsed.data };
    const issue = parsed.error.issues[0]!;
    return { problem: { parameter: jsonPath(issue.path), expected: issue.message } };
  } catch (error) {
    return { problem: { expected: `JSON (${(error as Error).message})` } };
  }
}

/**
 * Writes `value` as JSON to `path`, readable by the person alone: a temp file created 0600 (never readable
 * by others, not even for a moment), fsync, rename, so a crash leaves the old file or the new one, never
 * half of one. The temp file is removed when anything fails, and the error is thrown on.
 */
export function writePrivateJson(path: string, value: unknown): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
