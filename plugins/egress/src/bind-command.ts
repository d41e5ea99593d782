import type { CliCommand, CommandIO } from '@nodwyn/plugin-api';
import { addBinding, removeBindings, tableToData, type BindingTable, type BoundDestination } from './binding-table.js';
import { BindingFileSchema, CLASS_NAME, readBindings, writeBindings } from './bindings-file.js';
import { formatHostPattern, parseHostPattern, parsePathPrefix } from './destination.js';
import { egressError } from './errors.js';
import { formatPosition, splitPositions } from './position.js';

type Options = Readonly<Record<string, unknown>>;

const USAGE = 'nodwyn bind add CLASS --host HOST [--path PREFIX] --position header:NAME --method GET,POST | nodwyn bind list [--json] | nodwyn bind rm CLASS [--host HOST] [--path PREFIX]';
/** The option each field of a binding comes from, so a CLI mistake names the flag rather than a JSON path. */
const FLAG_OF: Readonly<Record<string, string>> = { host: '--host', path_prefix: '--path', positions: '--position', methods: '--method' };

function usage(message: string, failed?: string): never {
  throw egressError('BIND_USAGE', { operation: 'bind', ...(failed ? { failed_parameter: failed } : {}), expected: USAGE, remediation: `${message}. Usage: ${USAGE}` });
}

/** Repeatable options arrive as a list (commander `<x...>`) or one string; both may hold comma lists. */
function listOption(value: unknown, split: (text: string) => string[]): string[] {
  const items = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  return items.flatMap(split);
}

function className(args: readonly string[]): string {
  const [cls, extra] = args;
  if (cls === undefined) usage('Name the secret class');
  if (extra !== undefined) usage(`Give one class at a time (got ${args.join(', ')})`);
  if (!CLASS_NAME.test(cls)) usage(`"${cls}" is not a class name (letters, digits, _ . -, at most 64)`, 'CLASS');
  return cls;
}

/** Reads the options of `bind add` into a destination, checked by the same schema as bindings.toml. */
function destinationFrom(cls: string, options: Options): BoundDestination {
  const raw = {
    host: typeof options.host === 'string' ? options.host : usage('--host is required'),
    ...(typeof options.path === 'string' ? { path_prefix: options.path } : {}),
    positions: listOption(options.position, splitPositions),
    methods: listOption(options.method, (text) => text.split(',').map((m) => m.trim()).filter(Boolean)),
  };
  const parsed = BindingFileSchema.safeParse({ [cls]: [raw] });
  if (parsed.success) return parsed.data[cls]![0]!;
  const issue = parsed.error.issues[0]!;
  const flag = FLAG_OF[String(issue.path[2])] ?? 'CLASS';
  return usage(`${flag}: ${issue.message}`, flag);
}

function describe(cls: string, entry: BoundDestination): string {
  const where = `${formatHostPattern(entry.host)}${entry.pathPrefix ?? ''}`;
  return `${cls} → ${where} (${entry.positions.map(formatPosition).join(', ')}; ${entry.methods.join(', ')})`;
}

function list(table: BindingTable, path: string, options: Options, io: CommandIO): number {
  if (options.json) {
    io.write(`${JSON.stringify(tableToData(table), null, 2)}\n`);
    return 0;
  }
  const lines = Object.entries(table).flatMap(([cls, entries]) => entries.map((entry) => describe(cls, entry)));
  if (lines.length === 0) io.write(`No bindings in ${path}. Add one with: nodwyn bind add CLASS --host HOST --position header:Authorization --method GET\n`);
  else io.write(`${lines.join('\n')}\n`);
  return 0;
}

function remove(table: BindingTable, path: string, args: readonly string[], options: Options, io: CommandIO): number {
  const cls = className(args);
  const host = typeof options.host === 'string' ? parseHostPattern(options.host) : undefined;
  if (host && 'error' in host) usage(`--host: expected ${host.error}`, '--host');
  const pathPrefix = typeof options.path === 'string' ? parsePathPrefix(options.path) : undefined;
  if (typeof pathPrefix === 'object') usage(`--path: expected ${pathPrefix.error}`, '--path');
  const result = removeBindings(table, cls, { ...(host ? { host } : {}), ...(pathPrefix === undefined ? {} : { pathPrefix }) });
  if (result.removed === 0) {
    throw egressError('BINDING_NOT_FOUND', { operation: 'bind rm', received_value: cls, remediation: `No binding of ${cls} matches; see them with \`nodwyn bind list\`.` });
  }
  writeBindings(path, result.table);
  io.write(`Removed ${result.removed} binding${result.removed === 1 ? '' : 's'} of ${cls}.\n`);
  return 0;
}

/** `nodwyn bind add|list|rm`: edits the binding table in bindings.toml, next to config.toml. */
export function createBindCommand(bindingsFile: () => string): CliCommand {
  return {
    name: 'bind',
    description: 'Bind secret classes to destinations (bind add CLASS --host H --position P --method M; bind list [--json]; bind rm CLASS [--host H]).',
    arguments: ['ACTION', 'CLASS...'],
    options: [
      { flags: '--host <host>', description: 'exact host, with :port when not the default; *.example.com for one subdomain level' },
      { flags: '--path <prefix>', description: 'path prefix the binding is limited to (segment boundary)' },
      { flags: '--position <positions...>', description: 'header:NAME, query:NAME, body:$.path, body or basic; repeatable or comma-separated' },
      { flags: '--method <methods...>', description: 'HTTP methods, e.g. GET,POST; repeatable or comma-separated' },
      { flags: '--json', description: 'bind list: print JSON' },
    ],
    async run({ args, options, io }) {
      const [action, ...rest] = args;
      const path = bindingsFile();
      const table = readBindings(path);
      if (action === 'list') return list(table, path, options, io);
      if (action === 'rm') return remove(table, path, rest, options, io);
      if (action !== 'add') return usage(`Unknown action "${action ?? ''}"`, 'ACTION');
      const cls = className(rest);
      const entry = destinationFrom(cls, options);
      writeBindings(path, addBinding(table, cls, entry));
      io.write(`Bound ${describe(cls, entry)} in ${path}.\n`);
      return 0;
    },
  };
}
