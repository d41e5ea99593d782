import { EnvelopeError } from '@nodwyn/plugin-api';
import { configPath, dataDir, openRuntime } from '@nodwyn/runtime';
import { inProcessConnection, runningDaemon, viaProtocol } from '../agent-connection.js';
import { agentRuntimeOver } from '../agent-runtime.js';
import { cliBoot } from '../cli-boot.js';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { askHidden } from '../hidden-input.js';
import { readAll } from '../read-all.js';
import { forTerminal, jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';

/** Options of `nodwyn setup`. */
export interface SetupFlags {
  readonly provider: string;
  readonly model: string;
  readonly baseUrl?: string;
  readonly json?: boolean;
}

/** The longest key `_nodwyn/providers/configure` takes. */
const MAX_KEY_BYTES = 16_384;

/**
 * `nodwyn setup --provider P --model M [--base-url URL]`: what the terminal front end's first-run setup
 * does, for scripts and for people without it. It asks the agent itself (`_nodwyn/providers/configure`,
 * served in this process), so there is one implementation of where the key goes (the keychain, bound to
 * the provider's host), what config.toml gets, and which providers need a key. The key comes from stdin,
 * never from an argument, which `ps` and shell history would show.
 */
export async function setupCommand(flags: SetupFlags): Promise<number> {
  return guarded(flags.json, async () => {
    const key = await readKey(flags.provider);
    if (key.cancelled) {
      process.stderr.write('nodwyn: setup cancelled; nothing was written\n');
      return EXIT.CANCELLED;
    }
    const apiKey = key.value;
    const runtime = await openRuntime(cliBoot());
    try {
      const connection = await inProcessConnection(agentRuntimeOver(runtime), { name: 'nodwyn-setup' });
      try {
        const done = await viaProtocol(() => connection.client.configureProvider({ provider: flags.provider, model: flags.model, apiKey, baseUrl: flags.baseUrl }));
        if (flags.json) process.stdout.write(`${jsonText(done)}\n`);
        else {
          const key = done.secret ? `; its key is the keychain secret "${done.secret}", bound to the provider's host` : '';
          process.stdout.write(forTerminal(`nodwyn now uses ${done.provider} (model ${done.model})${key}; written to ${done.config}\n`));
        }
      } finally {
        await connection.close();
      }
    } finally {
      await runtime.close();
    }
    const daemon = runningDaemon(dataDir());
    if (daemon) process.stderr.write(`nodwyn: nodwyn serve (pid ${daemon.pid}) read ${configPath()} when it started; restart it (nodwyn serve --stop, then nodwyn serve) to use the new provider\n`);
    return EXIT.OK;
  });
}

/**
 * The API key: all of stdin when it is piped (a trailing newline dropped), or typed at the terminal
 * without echo (Ctrl-C cancels). Empty means none: a local OpenAI-compatible server needs none, and the
 * agent refuses a provider that does.
 */
async function readKey(provider: string): Promise<{ readonly cancelled: true } | { readonly cancelled: false; readonly value?: string }> {
  const typed = process.stdin.isTTY
    ? await askHidden(forTerminal(`API key for ${provider} (not shown; Enter alone for none): `))
    : await readAll(process.stdin, MAX_KEY_BYTES, (limit) =>
        new EnvelopeError({
          category: 'LIMIT_EXCEEDED',
          code: CliCodes.SETUP_KEY_TOO_LARGE,
          failed_parameter: 'stdin',
          expected: `an API key of at most ${limit} bytes`,
          remediation: 'Pipe only the API key to nodwyn setup: printf %s "$ANTHROPIC_API_KEY" | nodwyn setup --provider anthropic --model MODEL.',
        }),
      );
  if (typed === undefined) return { cancelled: true };
  const value = typed.trim();
  return value === '' ? { cancelled: false } : { cancelled: false, value };
}
