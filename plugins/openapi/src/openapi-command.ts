import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isEnvelopeError, withJsonFailures, type CliCommand, type CommandIO, type Keychain } from '@nodwyn/plugin-api';
import { API_NAME, copyPath, readRegistry, writeRegistry, type ApiEntry } from './api-config.js';
import { apiFromDocument, type LoadedApi } from './api-load.js';
import { loadDocument } from './document-load.js';
import { openApiError } from './errors.js';
import { login, logout } from './openapi-login.js';

const USAGE = [
  'usage: nodwyn openapi add FILE --name NAME [--only op1,op2] [--base-url URL] [--auth SCHEME=secret:NAME,...] [--json]',
  '       nodwyn openapi list [--json]',
  '       nodwyn openapi remove NAME [--json]',
  '       nodwyn openapi login NAME --client-id ID [--client-secret secret:NAME] [--scheme S] [--scopes a,b] [--port N] [--timeout S] [--json]',
  '       nodwyn openapi logout NAME [--json]',
].join('\n');

/** What the command reads besides its arguments. */
export interface OpenApiCommandDeps {
  readonly configDir: string;
  /** The APIs the plugin loaded at start, by name, or their failure (for `list`). */
  readonly loaded: () => ReadonlyMap<string, LoadedApi | Error>;
  /** Where `login` keeps OAuth2 tokens. */
  readonly keychain: () => Keychain | undefined;
}

function usage(why: string): Error {
  return openApiError('OPENAPI_USAGE', { operation: 'openapi', remediation: `${why}\n${USAGE}` });
}

function list(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

function authOf(value: unknown): Record<string, string> | undefined {
  const pairs = list(value);
  if (!pairs) return undefined;
  return Object.fromEntries(
    pairs.map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0 || !/^secret:[A-Za-z0-9_.-]{1,64}$/.test(pair.slice(eq + 1))) throw usage(`--auth takes SCHEME=secret:NAME pairs, not ${JSON.stringify(pair)}`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}

/** One line per tool: name, tier, method and path. */
function toolLines(api: LoadedApi): string[] {
  const width = Math.max(...api.operations.map((op) => op.tool.length), 4);
  return api.operations.map((op) => `  ${op.tool.padEnd(width)}  ${op.descriptor.tier.padEnd(12)} ${op.method} ${op.path}`);
}

function toolsJson(api: LoadedApi) {
  return api.operations.map((op) => ({ name: op.tool, tier: op.descriptor.tier, method: op.method, path: op.path, operation: op.operationId }));
}

async function add(deps: OpenApiCommandDeps, file: string, options: Readonly<Record<string, unknown>>, io: CommandIO): Promise<number> {
  const name = options.name;
  if (typeof name !== 'string' || !API_NAME.test(name)) throw usage('--name NAME is required: a lower-case letter, then letters, digits or _ (at most 24)');
  const source = resolve(file);
  const { document, digest } = await loadDocument(source);
  const registry = readRegistry(deps.configDir);
  const copy = copyPath(deps.configDir, name);
  const entry: ApiEntry = {
    document: relative(deps.configDir, copy),
    source,
    digest,
    ...(list(options.only) ? { operations: list(options.only) } : {}),
    ...(typeof options.baseUrl === 'string' ? { base_url: options.baseUrl } : {}),
    ...((authOf(options.auth) ?? registry[name]?.auth) ? { auth: authOf(options.auth) ?? registry[name]?.auth } : {}),
  };
  // Map before writing: an unknown --only or a document without a server changes nothing.
  const api = apiFromDocument({ name, entry, document: copy }, document);
  mkdirSync(dirname(copy), { recursive: true });
  const temp = `${copy}.tmp`;
  writeFileSync(temp, JSON.stringify(document), { mode: 0o600 });
  renameSync(temp, copy);
  writeRegistry(deps.configDir, { ...registry, [name]: entry });
  if (options.json === true) io.write(`${JSON.stringify({ api: name, source, tools: toolsJson(api) })}\n`);
  else io.write(`Added ${name} from ${source}: ${api.operations.length} tool${api.operations.length === 1 ? '' : 's'}.\n${toolLines(api).join('\n')}\n`);
  return 0;
}

function listApis(deps: OpenApiCommandDeps, options: Readonly<Record<string, unknown>>, io: CommandIO): number {
  const loaded = deps.loaded();
  const rows = [...loaded].map(([name, api]) => (api instanceof Error ? { name, error: isEnvelopeError(api) ? api.envelope : { remediation: api.message } } : { name, tools: toolsJson(api) }));
  if (options.json === true) {
    io.write(`${JSON.stringify(rows)}\n`);
    return 0;
  }
  if (rows.length === 0) io.write('No OpenAPI documents. Add one with: nodwyn openapi add FILE --name NAME\n');
  for (const [name, api] of loaded) {
    if (api instanceof Error) io.write(`${name}: not loaded: ${isEnvelopeError(api) ? api.envelope.remediation : api.message}\n`);
    else io.write(`${name}: ${api.operations.length} tool${api.operations.length === 1 ? '' : 's'}\n${toolLines(api).join('\n')}\n`);
  }
  return 0;
}

function remove(deps: OpenApiCommandDeps, name: string, options: Readonly<Record<string, unknown>>, io: CommandIO): number {
  const registry = readRegistry(deps.configDir);
  if (!(name in registry)) {
    throw openApiError('OPENAPI_API_UNKNOWN', {
      operation: 'openapi.remove',
      failed_parameter: 'NAME',
      received_value: name,
      expected: Object.keys(registry).join(', ') || 'a registered API',
      remediation: 'Name an API that `nodwyn openapi list` shows (an API set only in config.toml is removed by editing config.toml).',
    });
  }
  const { [name]: _removed, ...rest } = registry;
  writeRegistry(deps.configDir, rest);
  rmSync(copyPath(deps.configDir, name), { force: true });
  io.write(options.json === true ? `${JSON.stringify({ removed: name })}\n` : `Removed ${name}; its tools are gone from the next start.\n`);
  return 0;
}

/**
 * `nodwyn openapi add|list|remove`: the person's registry of OpenAPI documents (openapi.toml and the
 * bundled copies in the config folder, never a repository's `.nodwyn/`).
 */
export function openApiCommand(deps: OpenApiCommandDeps): CliCommand {
  return {
    name: 'openapi',
    description: 'Turn OpenAPI documents into guarded tools: openapi add FILE --name NAME | list | remove NAME | login NAME | logout NAME.',
    arguments: ['action', 'rest...'],
    options: [
      { flags: '--name <name>', description: 'the API name, the prefix of its tools (add)' },
      { flags: '--only <operations>', description: 'comma-separated operationIds to make tools of (add)' },
      { flags: '--base-url <url>', description: "replaces the document's server URL (add)" },
      { flags: '--auth <pairs>', description: 'SCHEME=secret:NAME,... credentials per security scheme (add)' },
      { flags: '--client-id <id>', description: 'the OAuth2 client registered for nodwyn (login)' },
      { flags: '--client-secret <ref>', description: "the client's secret as secret:NAME, for a confidential client (login)" },
      { flags: '--scheme <scheme>', description: 'the oauth2 security scheme, when the document has several (login)' },
      { flags: '--scopes <scopes>', description: "comma-separated scopes to ask for; the flow's scopes by default (login)" },
      { flags: '--port <port>', description: 'the loopback port of the redirect URI, 0 for any (login)' },
      { flags: '--timeout <seconds>', description: 'how long to wait for the authorization, 300 by default (login)' },
      { flags: '--json', description: 'print JSON' },
    ],
    run({ args, options, io }) {
      return withJsonFailures(options, io, async () => {
        const [action, target] = args;
        if (action === 'add' && target) return await add(deps, target, options, io);
        if (action === 'list') return listApis(deps, options, io);
        if (action === 'remove' && target) return remove(deps, target, options, io);
        if (action === 'login' && target) return await login(deps, target, options, io);
        if (action === 'logout' && target) return await logout(deps, target, options, io);
        throw usage(`nodwyn openapi: unknown or incomplete action ${JSON.stringify(args.join(' '))}`);
      });
    },
  };
}
