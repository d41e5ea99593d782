import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EnvelopeError, jsonPath, valueAt, z, type EnvelopeInit } from '@nodwyn/plugin-api';
import { PLUGIN_NAME, ScriptedErrorCode } from './errors.js';

/** Largest script accepted. A bigger file is almost surely the wrong file, and reading it would stall the run. */
export const SCRIPT_MAX_BYTES = 16 * 1024 * 1024;

const FORMAT =
  '{ "replies": [ { "text"?: string, "toolCalls"?: [ { "name": string, "args": object } ], "usage"?: { "input": n, "output": n } } ] }';

/** A strict object whose unknown-key message lists the keys it does allow, so the envelope can say so. */
function strictObject<T extends z.ZodRawShape>(shape: T) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `only the keys ${allowed}` : undefined),
  });
}

const ScriptToolCallSchema = strictObject({
  name: z.string().min(1, 'a non-empty tool name'),
  args: z.record(z.string(), z.unknown()),
});

const ScriptUsageSchema = strictObject({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
});

const ReplySchema = strictObject({
  text: z.string().optional(),
  toolCalls: z.array(ScriptToolCallSchema).optional(),
  usage: ScriptUsageSchema.optional(),
}).refine((reply) => reply.text !== undefined || (reply.toolCalls?.length ?? 0) > 0, {
  message: 'a reply with "text" or at least one tool call',
});

/** The script format (docs/architecture.md §12). */
export const ScriptSchema = strictObject({
  replies: z.array(ReplySchema).min(1, 'at least one reply'),
});

/** A validated script. */
export type Script = z.infer<typeof ScriptSchema>;
/** One reply of a script. */
export type ScriptReply = Script['replies'][number];

/** A script and the absolute path it was read from. */
export interface LoadedScript {
  readonly path: string;
  readonly script: Script;
}

function scriptError(init: Omit<EnvelopeInit, 'operation' | 'plugin'>, cause?: unknown): EnvelopeError {
  return new EnvelopeError({ ...init, operation: 'provider.create', plugin: PLUGIN_NAME }, { cause });
}

/**
 * Reads, parses and validates the script named by the `script` option. Relative paths resolve against
 * the process's working directory, where the person typed `--script`.
 */
export async function loadScript(option: string | undefined): Promise<LoadedScript> {
  if (option === undefined || option.trim() === '') {
    throw scriptError({
      category: 'VALIDATION_FAILED',
      code: ScriptedErrorCode.SCRIPT_OPTION_MISSING,
      failed_parameter: 'script',
      expected: 'a path to a JSON script file',
      remediation: `Pass --script FILE, where FILE is a JSON script: ${FORMAT}.`,
    });
  }
  const path = resolve(process.cwd(), option);
  const data: unknown = parseJson(await readScriptText(path), path);
  return { path, script: validateScript(data, path) };
}

async function readScriptText(path: string): Promise<string> {
  const notFound = (cause: unknown) =>
    scriptError(
      {
        category: 'NOT_FOUND',
        code: ScriptedErrorCode.SCRIPT_NOT_FOUND,
        failed_parameter: 'script',
        received_value: path,
        expected: 'a readable file',
        remediation: `No readable script file at ${path}; check the --script path (relative paths start at ${process.cwd()}).`,
      },
      cause,
    );
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw notFound(error);
  });
  try {
    // Size and read go through one handle so the file checked is the file read.
    const info = await handle.stat();
    if (!info.isFile()) throw notFound(undefined);
    if (info.size > SCRIPT_MAX_BYTES) {
      throw scriptError({
        category: 'LIMIT_EXCEEDED',
        code: ScriptedErrorCode.SCRIPT_TOO_LARGE,
        failed_parameter: 'script',
        received_value: `${info.size} bytes`,
        expected: `at most ${SCRIPT_MAX_BYTES} bytes`,
        remediation: `The script ${path} is ${info.size} bytes, over the ${SCRIPT_MAX_BYTES}-byte limit; check that --script names the right file.`,
      });
    }
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    // Editors on Windows often save a byte-order mark, which JSON.parse rejects as an unexpected token.
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const where = locate(text, message);
    throw scriptError(
      {
        category: 'VALIDATION_FAILED',
        code: ScriptedErrorCode.SCRIPT_INVALID_JSON,
        failed_parameter: 'script',
        received_value: message,
        expected: 'valid JSON',
        remediation: `The script ${path} is not valid JSON${where ? ` (${where})` : ''}: ${message}. Fix the syntax.`,
      },
      error,
    );
  }
}

/**
 * Turns the parser's offset into a line and column. V8 names an offset only in some messages ("at
 * position N"); an unexpected end is at the end of the text; otherwise there is nothing to report.
 */
function locate(text: string, message: string): string | undefined {
  const offset = /at position (\d+)/.exec(message)?.[1];
  let at: number;
  if (offset !== undefined) at = Number(offset);
  else if (message.includes('Unexpected end of JSON input')) at = text.length;
  else return undefined;
  const before = text.slice(0, at).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

function validateScript(data: unknown, path: string): Script {
  const parsed = ScriptSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const issue = issues[0]!;
  // An unknown key is reported at its object; point at the key itself instead.
  const keyPath = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  const at = jsonPath(keyPath);
  const expected = issue.code === 'invalid_type' ? (issue.expected === 'record' ? 'object' : issue.expected) : issue.message;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more ${issues.length === 2 ? 'problem' : 'problems'})` : '';
  throw scriptError({
    category: 'VALIDATION_FAILED',
    code: ScriptedErrorCode.SCRIPT_INVALID,
    failed_parameter: at,
    received_value: valueAt(data, keyPath),
    expected,
    remediation: `Fix ${at} in ${path}: expected ${expected}${more}. A script is ${FORMAT}.`,
  });
}

