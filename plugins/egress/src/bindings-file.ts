import { jsonPath, valueAt, z } from '@nodwyn/plugin-api';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import { METHODS, tableToData, type BindingTable, type Method } from './binding-table.js';
import { parseHostPattern, parsePathPrefix } from './destination.js';
import { egressError } from './errors.js';
import { parsePosition } from './position.js';

/** Secret class names: what keychain classes and taint tags look like. */
export const CLASS_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Turns a `parse…` function that answers `{ error }` into a zod transform. */
function parsed<T extends object | string>(parseText: (text: string) => T | { readonly error: string }) {
  return z.string().transform((text, ctx): Exclude<T, { readonly error: string }> => {
    const result = parseText(text);
    if (typeof result === 'object' && 'error' in result) {
      ctx.addIssue({ code: 'custom', message: `expected ${result.error}` });
      return z.NEVER;
    }
    return result as Exclude<T, { readonly error: string }>;
  });
}

const MethodSchema = z
  .string()
  .transform((text) => text.trim().toUpperCase())
  .pipe(z.enum(METHODS));

const DestinationSchema = z
  .object({
    host: parsed(parseHostPattern),
    path_prefix: parsed(parsePathPrefix).optional(),
    positions: z.array(parsed(parsePosition)).min(1),
    methods: z.array(MethodSchema).min(1),
  })
  .strict()
  .transform((d) => ({ host: d.host, positions: d.positions, methods: d.methods as Method[], ...(d.path_prefix === undefined ? {} : { pathPrefix: d.path_prefix }) }));

/** bindings.toml: `[[CLASS]]` tables, each one destination. */
export const BindingFileSchema = z.record(
  z.string().regex(CLASS_NAME, 'a class name of letters, digits, _ . - (at most 64)'),
  z.array(DestinationSchema),
);

const HEADER = [
  '# nodwyn binding table: which secret classes may be sent to which destinations.',
  '# Written by `nodwyn bind`; hand edits are kept, comments are not.',
  '',
].join('\n');

/** Validates parsed TOML data as a binding table; a bad entry is an envelope naming its JSON path. */
export function parseBindings(raw: unknown, source: string): BindingTable {
  const result = BindingFileSchema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = jsonPath(issue.path);
  throw egressError('BINDINGS_INVALID', {
    operation: 'bindings.load',
    failed_parameter: where,
    received_value: valueAt(raw, issue.path),
    expected: issue.message,
    remediation: `Fix ${where} in ${source} (${issue.message}), or remove the entry with \`nodwyn bind rm\` and add it again.`,
  });
}

/** Reads the binding table; a missing file is an empty table, a broken one an envelope. */
export function readBindings(path: string): BindingTable {
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw egressError('BINDINGS_IO_FAILED', { operation: 'bindings.load', received_value: path, remediation: `Could not read ${path}; check its permissions.` }, error);
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    const where = error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : '';
    throw egressError('BINDINGS_INVALID_TOML', { operation: 'bindings.load', received_value: path, remediation: `Fix the TOML syntax of ${path}${where}.` }, error);
  }
  return parseBindings(raw, path);
}

/**
 * Writes the table atomically: a private temp file in the same folder, flushed, then renamed over the old
 * one, so a crash leaves either the old table or the new one, never half of one.
 */
export function writeBindings(path: string, table: BindingTable): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, HEADER + stringify(tableToData(table)) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw egressError('BINDINGS_IO_FAILED', { operation: 'bindings.save', received_value: path, remediation: `Could not write ${path}; check that its folder is writable.` }, error);
  }
}
