import { Command, CommanderError, Option } from 'commander';
import { embeddedDistribution } from './embedded-distribution.js';
import { EXIT } from './exit-codes.js';
import { InvalidOption, port, positiveInt, positiveNumber } from './option-parsers.js';
import { VERSION } from './version.js';

// Each action imports its module on demand, so `nodwyn --version` and `--help` load almost nothing.
const program = new Command('nodwyn')
  .description('A coding agent you can trust with real credentials: a microkernel (log, guard, primitives) and plugins.')
  .version(VERSION, '-V, --version')
  // The root's options (-V, --version, -h) count only before the command name. Otherwise commander
  // reads them anywhere, and a command's own option of the same name (`nodwyn capability show NAME
  // --version 2`) printed nodwyn's version instead. Must be set before any command is added: commands
  // copy it when they are made.
  .enablePositionalOptions()
  .showSuggestionAfterError()
  .exitOverride()
  // Root options: like -V, they count only before a command name (enablePositionalOptions above).
  .addOption(new Option('-c, --continue', "open this folder's latest session in the front end (a new one when there is none)").conflicts('resume'))
  .option('--resume [id]', 'open session ID in the front end; without ID, pick one from a list')
  // Taken off argv before commander parses it (see main); declared here for the help only.
  .option('--distribution <file>', 'run every command with the distribution this nodwyn.dist.toml describes (also NODWYN_DISTRIBUTION)')
  .action(async (options: { continue?: boolean; resume?: string | true }) => {
    const request = options.continue ? { kind: 'continue' as const } : options.resume !== undefined ? { kind: 'resume' as const, session: options.resume === true ? undefined : options.resume } : { kind: 'new' as const };
    // `nodwyn` alone off a terminal has no one to show a front end to: the help, as a usage error.
    if (request.kind === 'new' && !(process.stdin.isTTY && process.stdout.isTTY)) program.help({ error: true });
    const { frontendCommand } = await import('./commands/frontend.js');
    process.exitCode = await frontendCommand(request);
  });

program
  .command('run')
  .description('Run one prompt in the current directory (the workspace) and print the answer.')
  .argument('[prompt]', 'what to ask; - (or none, with stdin piped) reads it from stdin; for --provider replay, defaults to the replayed session\'s first prompt')
  .option('--provider <id>', 'model provider: anthropic, openai, openai-compatible, scripted, replay (default: [provider] default in config; see nodwyn setup)')
  .option('--model <model>', 'model name for the provider (see nodwyn models)')
  .option('--base-url <url>', 'API base URL, e.g. http://127.0.0.1:11434/v1 for a local OpenAI-compatible server')
  .option('--api-key <name>', 'keychain secret holding the API key (see nodwyn secret; bind its class to the host)')
  .option('--api <api>', 'for openai and openai-compatible: chat (Chat Completions, default) or responses')
  .option('--script <file>', 'reply script for the scripted provider, which it picks when no other is named')
  .option('--judge', 'have the judge decide whether the ask needs a plan and score it ([judge] in config)')
  .option('--session <id>', 'continue this session (for --provider replay: the session to replay)')
  .option('--loop <id>', 'loop strategy', undefined)
  .option('--json', 'print every log event and each streamed delta once, one JSON object per line')
  .option('-y, --yes', 'grant confirmations for destructive calls without asking')
  .addOption(new Option('--max-turns <n>', 'most model calls in this run').argParser(positiveInt('--max-turns')))
  .addOption(new Option('--max-tool-calls <n>', 'most tool calls in this run').argParser(positiveInt('--max-tool-calls')))
  .addOption(new Option('--max-cost <usd>', 'stop once the model calls of this run cost more than this many USD').argParser(positiveNumber('--max-cost')))
  .action(async (prompt: string | undefined, options: Record<string, unknown>) => {
    const { runCommand } = await import('./commands/run.js');
    process.exitCode = await runCommand(prompt, options);
  });

program
  .command('models')
  .description('List the model providers of this distribution, their models and prices (USD per million tokens).')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const { modelsCommand } = await import('./commands/models.js');
    process.exitCode = await modelsCommand(options);
  });

program
  .command('tools')
  .description('List the tools the model can call, with tier and input schema.')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const { toolsCommand } = await import('./commands/tools.js');
    process.exitCode = await toolsCommand(options);
  });

const plugins = program
  .command('plugins')
  .description('List the plugins of this distribution and their state; approve, add, update and remove third-party ones.')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const { pluginsCommand } = await import('./commands/plugins.js');
    process.exitCode = await pluginsCommand(options);
  });
plugins
  .command('approve')
  .description('Review the installed files of a third-party plugin and approve them (the trust ledger); a changed file asks again.')
  .argument('<package>', 'the plugin package')
  .option('-y, --yes', 'approve without asking (review the printed files first)')
  .action(async (name: string, options: { yes?: boolean }) => {
    const { pluginsApproveCommand } = await import('./commands/plugins-manage.js');
    process.exitCode = await pluginsApproveCommand(name, options);
  });
plugins
  .command('add')
  .description("npm install a plugin into the config folder (npm's configured registry), add it to config.toml and approve it.")
  .argument('<spec>', 'PKG, PKG@RANGE, or a tarball or folder path npm install takes')
  .option('-y, --yes', 'approve without asking (review the printed files first)')
  .action(async (spec: string, options: { yes?: boolean }) => {
    const { pluginsAddCommand } = await import('./commands/plugins-manage.js');
    process.exitCode = await pluginsAddCommand(spec, options);
  });
plugins
  .command('update')
  .description('npm update a plugin (every one, when none is named) in the config folder, show what changed and approve it again.')
  .argument('[package]', 'the plugin package; every plugin in the config folder when left out')
  .option('-y, --yes', 'approve without asking (review the printed changes first)')
  .action(async (name: string | undefined, options: { yes?: boolean }) => {
    const { pluginsUpdateCommand } = await import('./commands/plugins-manage.js');
    process.exitCode = await pluginsUpdateCommand(name, options);
  });
plugins
  .command('remove')
  .description('Uninstall a plugin from the config folder and drop it from config.toml and the trust ledger.')
  .argument('<package>', 'the plugin package')
  .action(async (name: string) => {
    const { pluginsRemoveCommand } = await import('./commands/plugins-manage.js');
    process.exitCode = await pluginsRemoveCommand(name);
  });

program
  .command('plugin')
  .description('Author a plugin: `plugin new` writes a standalone npm package for one.')
  .command('new')
  .description('Write a new plugin package of one kind (tool, provider, stage, frontend, sandbox, loop), with a test running its conformance suite.')
  .argument('<name>', 'the npm package name (word-count, @acme/nodwyn-plugin-word-count)')
  .requiredOption('--kind <kind>', 'tool, provider, stage, frontend, sandbox or loop')
  .option('--dir <dir>', 'the folder to write into; the last part of NAME by default (must be new or empty)')
  .option('--json', 'print JSON')
  .action(async (name: string, options: { kind: string; dir?: string; json?: boolean }) => {
    const { pluginNewCommand } = await import('./commands/plugin-new.js');
    process.exitCode = await pluginNewCommand(name, options);
  });

program
  .command('trust')
  .description("Review this workspace's .nodwyn/ configuration and trust it; it loads only while unchanged.")
  .option('-y, --yes', 'trust without asking (review the printed files first)')
  .option('--show', 'print every file in full, however long')
  .addOption(new Option('--revoke', 'forget the trust in this workspace').conflicts(['status', 'yes', 'show']))
  .addOption(new Option('--status', 'print none, untrusted, changed or trusted').conflicts(['yes', 'show']))
  .option('--json', 'with --status: print one JSON object')
  .action(async (options: { yes?: boolean; show?: boolean; revoke?: boolean; status?: boolean; json?: boolean }) => {
    const { trustCommand } = await import('./commands/trust.js');
    process.exitCode = await trustCommand(options);
  });

const log = program.command('log').description('Inspect and verify the log.');
log
  .command('list')
  .description('List sessions.')
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const { logListCommand } = await import('./commands/log.js');
    process.exitCode = await logListCommand(options);
  });
log
  .command('show')
  .description("Show a session's events.")
  .argument('<id>', 'session id')
  .option('--json', 'print one JSON event per line')
  .action(async (id: string, options: { json?: boolean }) => {
    const { logShowCommand } = await import('./commands/log.js');
    process.exitCode = await logShowCommand(id, options);
  });
log
  .command('rebuild-window')
  .description('Show the window the model would see at the session\'s next call, rebuilt from the log and its summaries.')
  .argument('<id>', 'session id')
  .option('--json', 'print the window as JSON')
  .action(async (id: string, options: { json?: boolean }) => {
    const { logRebuildWindowCommand } = await import('./commands/log.js');
    process.exitCode = await logRebuildWindowCommand(id, options);
  });
log
  .command('revoke-summary')
  .description('Drop a summary from the session\'s window (summary.revoked); the log keeps everything.')
  .argument('<id>', 'session id')
  .argument('<seq>', 'the seq of the summary.added event')
  .action(async (id: string, seq: string) => {
    const { logRevokeSummaryCommand } = await import('./commands/log.js');
    process.exitCode = await logRevokeSummaryCommand(id, Number(seq));
  });
log
  .command('verify')
  .description('Check the hash chain and signed checkpoints; exit 1 naming the first bad event.')
  .argument('[id]', 'session id (default: every session)')
  .action(async (id: string | undefined) => {
    const { logVerifyCommand } = await import('./commands/log.js');
    process.exitCode = await logVerifyCommand(id);
  });

program
  .command('acp')
  .description('Serve the agent to an editor over stdio (Agent Client Protocol, newline-delimited JSON): Zed, JetBrains, any ACP client.')
  .action(async () => {
    const { acpCommand } = await import('./commands/acp.js');
    process.exitCode = await acpCommand();
  });

const mcp = program.command('mcp').description("Model Context Protocol: the MCP servers nodwyn uses as tools (list, approve), and serving nodwyn's tools to other MCP clients (serve).");
mcp
  .command('list')
  .description("List the MCP servers of your config.toml and of the workspace's .mcp.json: source, approval, status and tools.")
  .option('--json', 'print JSON')
  .action(async (options: { json?: boolean }) => {
    const { mcpManageCommand } = await import('./commands/mcp-manage.js');
    process.exitCode = await mcpManageCommand(['list'], options);
  });
mcp
  .command('approve')
  .description("Approve a server of the workspace's .mcp.json: it starts (in a trusted workspace) until its definition changes.")
  .argument('<name>', 'the server, as .mcp.json names it')
  .option('--yes', 'approve without asking')
  .option('--json', 'print JSON')
  .action(async (name: string, options: { yes?: boolean; json?: boolean }) => {
    const { mcpManageCommand } = await import('./commands/mcp-manage.js');
    process.exitCode = await mcpManageCommand(['approve', name], options);
  });
mcp
  .command('serve')
  .description("Serve this workspace's tools, guarded, to an MCP client: over stdio (the client runs this command), or with --http over streamable HTTP on 127.0.0.1 with a bearer token.")
  .option('--http', 'serve streamable HTTP on 127.0.0.1; prints {"url","token"} as one JSON line and writes $NODWYN_HOME/mcp-serve.json')
  .addOption(new Option('--port <n>', 'port for --http (0, the default, picks a free one)').argParser(port('--port')))
  .action(async (options: { http?: boolean; port?: number }) => {
    const { mcpServeCommand } = await import('./commands/mcp-serve.js');
    process.exitCode = await mcpServeCommand(options);
  });

program
  .command('serve')
  .description('Run the daemon: the agent over WebSocket on 127.0.0.1 for every front end; writes $NODWYN_HOME/serve.json.')
  .addOption(new Option('--port <n>', 'port to listen on (0 picks a free one; default 7420)').argParser(port('--port')))
  .option('--stop', 'stop the daemon of this NODWYN_HOME')
  .action(async (options: { port?: number; stop?: boolean }) => {
    const { serveCommand } = await import('./commands/serve.js');
    process.exitCode = await serveCommand(options);
  });

program
  .command('web')
  .description('Open the web console: starts the daemon (nodwyn serve) if none runs, then opens the browser with a one-time login link.')
  .option('--no-open', 'print the login link (the last line on stdout) instead of opening the browser')
  .addOption(new Option('--port <n>', 'port for a daemon it starts (0 picks a free one; default 7420)').argParser(port('--port')))
  .action(async (options: { open: boolean; port?: number }) => {
    const { webCommand } = await import('./commands/web.js');
    process.exitCode = await webCommand(options);
  });

program
  .command('attach')
  .description("Join a session of the daemon (nodwyn serve) in the front end: the one running now, else the latest; another client may be on it too.")
  .option('--session <id>', 'the session to join')
  .action(async (options: { session?: string }) => {
    const { frontendCommand } = await import('./commands/frontend.js');
    process.exitCode = await frontendCommand({ kind: 'attach', session: options.session });
  });

program
  .command('setup')
  .description("Choose the model provider without the front end: config.toml gets the provider and model; the API key, read from stdin, goes to the keychain, bound to the provider's host.")
  .requiredOption('--provider <id>', 'anthropic, openai or openai-compatible')
  .requiredOption('--model <model>', 'the model to use (see nodwyn models)')
  .option('--base-url <url>', "the API's base URL, e.g. http://127.0.0.1:11434/v1 for a local OpenAI-compatible server")
  .option('--json', 'print what was written as JSON')
  .action(async (options: { provider: string; model: string; baseUrl?: string; json?: boolean }) => {
    const { setupCommand } = await import('./commands/setup.js');
    process.exitCode = await setupCommand(options);
  });

program
  .command('fork')
  .description('Start a new session from a copy of a session\'s window; prints the new id.')
  .argument('<id>', 'session to fork')
  .addOption(new Option('--at <seq>', 'fork at this event (default: the latest)').argParser(positiveInt('--at')))
  .action(async (id: string, options: { at?: number }) => {
    const { forkCommand } = await import('./commands/log.js');
    process.exitCode = await forkCommand(id, options);
  });

const dist = program.command('dist').description('Build a distribution file (nodwyn.dist.toml) into one runnable file.');
dist
  .command('build')
  .description('Bundle a distribution into OUT/<name>.mjs (its plugins and default config baked in), the native modules it needs beside it, and OUT/manifest.json listing what is inside.')
  .argument('<file>', 'the nodwyn.dist.toml to build')
  .requiredOption('--out <dir>', 'the folder to write; it must be empty or missing unless --force')
  .option('--force', 'write into a folder that is not empty, replacing what the build writes')
  .option('--json', 'print the manifest as JSON')
  .action(async (file: string, options: { out: string; force?: boolean; json?: boolean }) => {
    const { distBuildCommand } = await import('./commands/dist-build.js');
    process.exitCode = await distBuildCommand(file, options);
  });

async function main(original: string[]): Promise<void> {
  const builtin = new Set(program.commands.map((c) => c.name()));
  let argv = original;
  try {
    if (original.some((arg) => arg.startsWith('--distribution')) || process.env.NODWYN_DISTRIBUTION || embeddedDistribution()) {
      // Read now, before any command: a broken file fails every command the same way, and a test
      // distribution's warning is printed by every command, booting or not.
      const { chosenDistribution, takeDistributionFlag } = await import('./distribution-choice.js');
      argv = takeDistributionFlag(original, process.env);
      chosenDistribution();
    }
    const first = argv[2];
    const args = first && !first.startsWith('-') && !builtin.has(first) && first !== 'help' ? await promptOrPluginCommand(argv) : argv;
    await program.parseAsync(args);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return;
    }
    // A bad option value, or a boot that failed before a plugin command existed (a broken config.toml):
    // one envelope, never a stack trace with the bundle's source.
    const { reportFailure } = await import('./commands/guarded.js');
    process.exitCode = reportFailure(error, original.includes('--json'), error instanceof InvalidOption ? EXIT.USAGE : EXIT.ENVELOPE);
  }
}

/**
 * The first word names no built-in command: a plugin's command (`nodwyn secret`), a prompt (`nodwyn "fix
 * the parser"`, run as `nodwyn run` would), or a mistyped command (exit 2). The rule is in root-words.ts.
 */
async function promptOrPluginCommand(argv: string[]): Promise<string[]> {
  const words = argv.slice(2);
  let closePlugins = async (): Promise<void> => undefined;
  // A quoted prompt (a word with a space) names no command, so no plugin is loaded to tell.
  if (!/\s/.test(words[0]!)) {
    const { addPluginCommands } = await import('./commands/plugin-commands.js');
    closePlugins = await addPluginCommands(program);
    if (program.commands.some((c) => c.name() === words[0])) return argv;
  }
  const { readRootWords } = await import('./root-words.js');
  const read = readRootWords(words, [...program.commands.map((c) => c.name()), 'help']);
  // No plugin command runs now: let go of the plugins before a prompt boots its own runtime.
  await closePlugins();
  if (read.kind === 'unknown') {
    const suggestion = read.suggestions.length === 0 ? '' : `\n(Did you mean ${read.suggestions.length === 1 ? read.suggestions[0] : `one of ${read.suggestions.join(', ')}`}?)`;
    const asPrompt = read.suggestions.length === 0 ? `\n(To ask it as a prompt: nodwyn run ${JSON.stringify(read.word)})` : '';
    return program.error(`error: unknown command '${read.word}'${suggestion}${asPrompt}`, { code: 'commander.unknownCommand', exitCode: EXIT.USAGE });
  }
  if (!(process.stdin.isTTY && process.stdout.isTTY)) process.stderr.write('nodwyn: no terminal; running the prompt once as nodwyn run does\n');
  return [...argv.slice(0, 2), 'run', read.prompt, ...read.rest];
}

await main(process.argv);
