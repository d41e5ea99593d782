import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliCommand, CommandIO, PluginContext } from '@nodwyn/plugin-api';
import { describeGrants, type CapabilityVersion } from './capability.js';
import type { ExampleOutcome } from './examples.js';
import { capabilityRows } from './capability-rows.js';
import { notFound, type Registry } from './registry.js';

const USAGE = [
  'usage: nodwyn capability list [--json]',
  '       nodwyn capability show NAME [--version N] [--json]',
  '       nodwyn capability history NAME [--json]',
  '       nodwyn capability rollback NAME --to N',
  '       nodwyn capability disable NAME',
  '       nodwyn capability rm NAME',
  '       nodwyn capability test NAME',
  '       nodwyn capability edit NAME [--code FILE.ts] [--description TEXT] [--examples FILE.json]',
].join('\n');
const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const ACTIONS = ['list', 'show', 'history', 'rollback', 'disable', 'rm', 'test', 'edit'] as const;

type Options = Readonly<Record<string, unknown>>;

/**
 * `nodwyn capability …`: a person's view of the registry and their controls over it. Disable and rm are
 * new versions (the code is kept; rollback restores it); every change is logged in a session of its own.
 */
export function capabilityCommand(ctx: Pick<PluginContext, 'calls' | 'events'>, registry: Registry): CliCommand {
  const logged = (title: string) => {
    const session = ctx.calls.session(title);
    return (type: string, payload: Readonly<Record<string, unknown>>) => ctx.events.append(session, type, payload);
  };
  return {
    name: 'capability',
    description: 'Inspect and control the capabilities models registered: list, show NAME, history NAME, rollback NAME --to N, disable NAME, rm NAME, test NAME, edit NAME.',
    arguments: ['action', 'name...'],
    options: [
      { flags: '--version <n>', description: 'show: that version instead of the current one' },
      { flags: '--to <n>', description: 'rollback: the version to make current' },
      { flags: '--json', description: 'list, show, history: print JSON' },
      { flags: '--code <file>', description: 'edit: new TypeScript code from this file' },
      { flags: '--description <text>', description: 'edit: a new description' },
      { flags: '--examples <file>', description: 'edit: new examples, a JSON array of { args, expect | check }' },
    ],
    async run({ args, options, io }) {
      const [action, ...names] = args;
      const problem = usageProblem(action, names, options);
      if (problem) {
        io.error(`nodwyn capability: ${problem}\n${USAGE}\n`);
        return EXIT_USAGE;
      }
      const name = names[0]!;
      const json = options.json === true;
      switch (action as (typeof ACTIONS)[number]) {
        case 'list':
          return list(registry, io, json);
        case 'show':
          return show(registry, name, options.version === undefined ? undefined : Number(options.version), io, json);
        case 'history':
          return history(registry, name, io, json);
        case 'rollback': {
          const to = Number(options.to);
          const target = registry.rollback(name, to, logged(`capability rollback ${name} --to ${to}`));
          io.write(`${name}: version ${target.version} is current (${target.status}).\n`);
          return EXIT_OK;
        }
        case 'disable':
        case 'rm': {
          const status = action === 'rm' ? 'removed' : 'disabled';
          const made = registry.stop(name, status, `${status} by a person`, logged(`capability ${action} ${name}`));
          io.write(`${name}: ${status} as version ${made.version}; it no longer runs. Restore it with \`nodwyn capability rollback ${name} --to ${made.version - 1}\`.\n`);
          return EXIT_OK;
        }
        case 'test':
          return test(ctx, name, io);
        case 'edit':
          return edit(ctx, registry, name, options, io);
      }
    },
  };
}

function usageProblem(action: string | undefined, names: readonly string[], options: Options): string | undefined {
  if (action === undefined) return 'name an action';
  if (!(ACTIONS as readonly string[]).includes(action)) return `unknown action "${action}"`;
  if (action === 'list') return names.length === 0 ? undefined : 'list takes no NAME';
  if (names.length !== 1) return `${action} takes exactly one NAME`;
  const positive = (value: unknown) => typeof value === 'string' && /^[1-9][0-9]{0,8}$/.test(value);
  if (action === 'rollback' && !positive(options.to)) return 'rollback needs --to N, a version number';
  if (action === 'show' && options.version !== undefined && !positive(options.version)) return '--version takes a version number';
  if (action === 'edit' && options.code === undefined && options.description === undefined && options.examples === undefined) return 'edit needs --code, --description or --examples';
  return undefined;
}

function list(registry: Registry, io: CommandIO, json: boolean): number {
  const rows = capabilityRows(registry);
  if (json) {
    io.write(`${JSON.stringify(rows.map(({ code: _code, compiled: _compiled, examples: _examples, ...rest }) => rest), null, 2)}\n`);
    return EXIT_OK;
  }
  if (rows.length === 0) {
    io.write('No capabilities are registered.\n');
    return EXIT_OK;
  }
  const table = [['NAME', 'VERSION', 'STATUS', 'RUNNER', 'GRANTS', 'DESCRIPTION'], ...rows.map((v) => [v.name, `v${v.version}`, v.status, v.runner, describeGrants(v.grants), oneLine(v.description)])];
  io.write(formatTable(table));
  return EXIT_OK;
}

function show(registry: Registry, name: string, wanted: number | undefined, io: CommandIO, json: boolean): number {
  const head = registry.head(name);
  if (!head) throw notFound(name);
  const version = registry.version(name, wanted ?? head.current);
  if (!version) {
    io.error(`nodwyn capability: ${name} has versions 1 to ${head.latest}; there is no version ${wanted}.\n`);
    return EXIT_USAGE;
  }
  if (json) {
    io.write(`${JSON.stringify({ ...version, current: version.version === head.current }, null, 2)}\n`);
    return EXIT_OK;
  }
  io.write(
    [
      `${version.name} v${version.version}${version.version === head.current ? ' (current)' : ''}: ${version.status}`,
      `  ${version.description}`,
      `  runner ${version.runner}; grants ${describeGrants(version.grants)}`,
      `  by ${version.author}${version.session ? ` in session ${version.session}` : ''} at ${version.created}`,
      `  sha256 ${version.hash}`,
      ...(version.note ? [`  note: ${version.note}`] : []),
      `  input schema: ${JSON.stringify(version.input_schema)}`,
      `  examples: ${version.examples.length}`,
      '',
      version.code.endsWith('\n') ? version.code : `${version.code}\n`,
    ].join('\n'),
  );
  return EXIT_OK;
}

function history(registry: Registry, name: string, io: CommandIO, json: boolean): number {
  const head = registry.head(name);
  if (!head) throw notFound(name);
  const versions = registry.history(name);
  if (json) {
    io.write(`${JSON.stringify(versions.map(({ code: _code, compiled: _compiled, ...rest }) => ({ ...rest, current: rest.version === head.current })), null, 2)}\n`);
    return EXIT_OK;
  }
  const rows = versions.map((v: CapabilityVersion) => [
    `${v.version === head.current ? '*' : ' '} v${v.version}`,
    v.status,
    v.created,
    v.author,
    v.hash.slice(0, 12),
    describeGrants(v.grants),
    v.note ?? '',
  ]);
  io.write(formatTable([['  VERSION', 'STATUS', 'CREATED', 'AUTHOR', 'SHA256', 'GRANTS', 'NOTE'], ...rows]));
  return EXIT_OK;
}

async function test(ctx: Pick<PluginContext, 'calls'>, name: string, io: CommandIO): Promise<number> {
  const session = ctx.calls.session(`capability test ${name}`);
  const result = await ctx.calls.apply({ session, name: 'capability.test', args: { name } });
  if (!result.ok) {
    io.error(`nodwyn capability test: ${result.envelope.code ?? result.envelope.category}: ${result.envelope.remediation}\n`);
    return EXIT_FAILED;
  }
  const { version, outcomes } = result.data as { version: number; outcomes: ExampleOutcome[] };
  for (const outcome of outcomes) {
    io.write(outcome.ok ? `ok    example ${outcome.index + 1}\n` : `FAIL  example ${outcome.index + 1}: ${outcome.envelope.remediation}\n`);
  }
  const passed = outcomes.filter((o) => o.ok).length;
  io.write(`${name} v${version}: ${passed} of ${outcomes.length} examples passed (session ${session}).\n`);
  return passed === outcomes.length ? EXIT_OK : EXIT_FAILED;
}

/**
 * A person's edit: the current version with the given parts replaced, admitted through the same gate as
 * the model's registrations (type stripping, the examples in the sandbox) as a new version by "person".
 * The files are read once, here; nothing runs from them later. Grants and runner stay as they were.
 */
async function edit(ctx: Pick<PluginContext, 'calls'>, registry: Registry, name: string, options: Options, io: CommandIO): Promise<number> {
  const current = registry.current(name);
  if (!current) throw notFound(name);
  const read = (flag: string): string | undefined => {
    const file = options[flag];
    if (typeof file !== 'string') return undefined;
    try {
      return readFileSync(resolve(file), 'utf8');
    } catch (error) {
      throw new Error(`--${flag} ${file}: ${(error as Error).message}`);
    }
  };
  let code: string | undefined;
  let examplesText: string | undefined;
  try {
    code = read('code');
    examplesText = read('examples');
  } catch (error) {
    io.error(`nodwyn capability edit: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  let examples: unknown = current.examples;
  if (examplesText !== undefined) {
    try {
      examples = JSON.parse(examplesText);
    } catch (error) {
      io.error(`nodwyn capability edit: --examples is not JSON: ${(error as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  const args = {
    name,
    description: typeof options.description === 'string' ? options.description : current.description,
    input_schema: current.input_schema,
    code: code ?? current.code,
    grants: current.grants,
    runner: current.runner,
    examples,
  };
  const session = ctx.calls.session(`capability edit ${name}`);
  const result = await ctx.calls.apply({ session, name: 'capability.edit', args });
  if (!result.ok) {
    io.error(`nodwyn capability edit: ${result.envelope.code ?? result.envelope.category}: ${result.envelope.remediation}\n`);
    return EXIT_FAILED;
  }
  io.write(`${result.content}\n`);
  return EXIT_OK;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}
