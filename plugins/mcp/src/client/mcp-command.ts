import { createInterface } from 'node:readline';
import { isEnvelopeError, withJsonFailures, type CliCommand, type CommandIO, type WorkspaceTrust } from '@nodwyn/plugin-api';
import type { Approvals } from './approvals.js';
import { mcpClientErrors } from './codes.js';
import type { BrokenServer } from './server-config.js';
import type { ServerSet } from './server-set.js';
import { describeTransport, specDigest, type ServerSource, type ServerSpec } from './server-spec.js';

const USAGE = ['usage: nodwyn mcp list [--json]', '       nodwyn mcp approve NAME [--yes] [--json]', '       nodwyn mcp serve [--http] [--port N]'].join('\n');

/** How long `nodwyn mcp list` waits for the servers to start before it reports them. */
const LIST_WAIT_MS = 5_000;

/** What the command reads besides its arguments. */
export interface McpCommandDeps {
  readonly trust: WorkspaceTrust;
  readonly person: readonly ServerSpec[];
  /** The workspace's `.mcp.json` servers, read whether or not the workspace is trusted (for approving). */
  readonly repository: () => { readonly servers: readonly ServerSpec[]; readonly broken: readonly BrokenServer[] };
  readonly broken: readonly BrokenServer[];
  readonly approvals: Approvals;
  readonly running: ServerSet;
  /** Starts a server just approved, in a trusted workspace, without waiting for the next start. */
  readonly approvedNow: (spec: ServerSpec) => void;
}

/** One row of `nodwyn mcp list`. */
export interface ServerRow {
  readonly name: string;
  readonly source: ServerSource;
  readonly transport: 'stdio' | 'http' | 'unknown';
  readonly target: string;
  /** `not_required` (the person's config), `approved`, or `required` (a `.mcp.json` server nobody approved). */
  readonly approval: 'not_required' | 'approved' | 'required';
  /** Whether it may start as far as approval goes: the person's own, or approved. */
  readonly approved: boolean;
  /** `ready`, `starting`, `restarting`, `unapproved`, `untrusted` (the workspace is not trusted) or `invalid`. */
  readonly status: string;
  readonly tools: number;
  readonly tool_names: readonly string[];
  readonly error?: string;
  /** The last lines the server wrote to stderr (stdio servers). */
  readonly stderr?: string;
}

function usage(why: string): Error {
  return mcpClientErrors.error('MCP_USAGE', { operation: 'mcp', remediation: `${why}\n${USAGE}` });
}

function rowOf(spec: ServerSpec, deps: McpCommandDeps): ServerRow {
  const base = { name: spec.name, source: spec.source, transport: spec.transport.kind, target: describeTransport(spec) };
  const approval = spec.source !== 'repository' ? 'not_required' : deps.approvals.approved(spec) ? 'approved' : 'required';
  const approved = approval !== 'required';
  const connection = deps.running.connection(spec.name);
  if (!connection || connection.spec !== spec) {
    const status = spec.source === 'repository' && deps.trust !== 'trusted' ? 'untrusted' : 'unapproved';
    return { ...base, approval, approved, status, tools: 0, tool_names: [] };
  }
  const names = connection.status === 'ready' ? [...deps.running.toolNames(spec.name).values()].sort() : [];
  return { ...base, approval, approved, status: connection.status, tools: names.length, tool_names: names, ...(connection.lastError && connection.status !== 'ready' ? { error: connection.lastError } : {}), ...(connection.stderrTail ? { stderr: connection.stderrTail.trim().split('\n').slice(-3).join('\n') } : {}) };
}

function brokenRow(broken: BrokenServer): ServerRow {
  const error = isEnvelopeError(broken.error) ? `${broken.error.envelope.failed_parameter ?? ''}: ${broken.error.envelope.expected ?? broken.error.message}` : String(broken.error);
  return { name: broken.name, source: broken.source, transport: 'unknown', target: '', approval: broken.source !== 'repository' ? 'not_required' : 'required', approved: broken.source !== 'repository', status: 'invalid', tools: 0, tool_names: [], error };
}

async function list(deps: McpCommandDeps, options: Readonly<Record<string, unknown>>, io: CommandIO): Promise<number> {
  await deps.running.settled(LIST_WAIT_MS);
  const repository = deps.repository();
  const rows = [
    ...deps.person.map((spec) => rowOf(spec, deps)),
    ...deps.broken.filter((b) => b.source === 'config').map(brokenRow),
    ...repository.servers.filter((spec) => !deps.person.some((p) => p.name === spec.name)).map((spec) => rowOf(spec, deps)),
    ...repository.broken.map(brokenRow),
  ];
  if (options.json === true) {
    io.write(`${JSON.stringify(rows)}\n`);
    return 0;
  }
  if (rows.length === 0) io.write('No MCP servers. Add one under [plugins."@nodwyn/plugin-mcp".servers.NAME] in config.toml (docs/mcp.md).\n');
  for (const row of rows) {
    io.write(`${row.name}  ${row.source}  ${row.status}  ${row.tools} tool${row.tools === 1 ? '' : 's'}  approval: ${row.approval}  ${row.target}\n`);
    if (row.error) io.write(`  ${row.error}\n`);
    if (row.status === 'unapproved') io.write(`  approve it with: nodwyn mcp approve ${row.name}\n`);
  }
  if (deps.trust !== 'trusted' && rows.some((r) => r.source === 'repository')) io.write('The workspace is not trusted: its .mcp.json servers do not start (see nodwyn trust).\n');
  return 0;
}

async function askYesNo(io: CommandIO, question: string): Promise<boolean> {
  io.write(`${question} [y/N] `);
  const rl = createInterface({ input: io.stdin });
  try {
    const answer = await new Promise<string>((resolve) => rl.once('line', resolve).once('close', () => resolve('')));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

async function approve(deps: McpCommandDeps, name: string, options: Readonly<Record<string, unknown>>, io: CommandIO): Promise<number> {
  const { servers } = deps.repository();
  const spec = servers.find((s) => s.name === name);
  if (!spec) {
    throw mcpClientErrors.error('MCP_SERVER_UNKNOWN', {
      operation: 'mcp.approve',
      failed_parameter: 'NAME',
      received_value: name,
      expected: servers.map((s) => s.name).join(', ') || 'a server of the workspace\'s .mcp.json',
      remediation: 'Name a server of the workspace\'s .mcp.json (`nodwyn mcp list` shows them). Servers of your own config.toml need no approval.',
    });
  }
  const what = `${spec.transport.kind === 'http' ? 'connect to' : 'run'} ${describeTransport(spec)}`;
  if (options.yes !== true) {
    if (!io.interactive) {
      throw mcpClientErrors.error('MCP_APPROVAL_REQUIRED', {
        operation: 'mcp.approve',
        received_value: name,
        remediation: `Nobody is at a terminal to confirm. The server would ${what}. If you want that, run \`nodwyn mcp approve ${name} --yes\`.`,
      });
    }
    if (!(await askYesNo(io, `The repository's .mcp.json server ${name} would ${what}, with your privileges. Approve it?`))) {
      io.write('Not approved.\n');
      return 1;
    }
  }
  deps.approvals.approve(spec);
  deps.approvedNow(spec);
  if (options.json === true) io.write(`${JSON.stringify({ approved: name, digest: specDigest(spec), trusted: deps.trust === 'trusted' })}\n`);
  else io.write(`Approved ${name}: it may ${what}. It starts now and from each start${deps.trust === 'trusted' ? '' : ' once the workspace is trusted (nodwyn trust)'}; a changed definition asks again.\n`);
  return 0;
}

/** `nodwyn mcp list|approve`: the MCP servers nodwyn uses, and the person's approval of a repository's. */
export function mcpCommand(deps: McpCommandDeps): CliCommand {
  return {
    name: 'mcp',
    description: 'MCP servers nodwyn uses as tools: mcp list | approve NAME.',
    arguments: ['action', 'rest...'],
    options: [
      { flags: '--yes', description: 'approve without asking (approve)' },
      { flags: '--json', description: 'print JSON' },
    ],
    run({ args, options, io }) {
      return withJsonFailures(options, io, async () => {
        const [action, target] = args;
        if (action === 'list') return await list(deps, options, io);
        if (action === 'approve' && target) return await approve(deps, target, options, io);
        throw usage(`nodwyn mcp: unknown or incomplete action ${JSON.stringify(args.join(' '))}`);
      });
    },
  };
}
