import type { Kernel } from '@nodwyn/kernel';
import type { CommandIO } from '@nodwyn/plugin-api';
import { Readable } from 'node:stream';
import { serverErrors } from './errors.js';

/** The plugin whose command each name is, for the envelope of a distribution that lacks it. */
const OWNERS: Readonly<Record<string, string>> = { secret: 'keychain', bind: 'egress', capability: 'capabilities' };

/** What a plugin's command printed. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a plugin's own `nodwyn <name>` command (the keychain's `secret`, the egress plugin's `bind`, the
 * capabilities plugin's `capability`) as a person would, so provider setup and the console methods store
 * keys, bindings and capability changes exactly as those commands do, with their checks.
 * `stdin` is the command's piped input (a secret's value): it is handed over, never printed or logged.
 * A command the distribution lacks is `SETUP_UNAVAILABLE`; one that refuses its input (a non-zero exit
 * without an envelope) is `SETUP_COMMAND_FAILED`; an envelope it throws passes through unchanged.
 */
export async function runPluginCommand(kernel: Kernel, name: string, args: readonly string[], options: Readonly<Record<string, unknown>>, stdin?: string): Promise<CommandOutput> {
  const entry = kernel.commands.list().find((c) => c.item.name === name);
  if (!entry) {
    const plugin = OWNERS[name] ?? name;
    throw serverErrors.error('SETUP_UNAVAILABLE', {
      operation: `${name} ${args[0] ?? ''}`.trim(),
      expected: `the \`${name}\` command (the ${plugin} plugin)`,
      remediation: `This distribution has no \`nodwyn ${name}\` command; add the ${plugin} plugin to it (or do this by hand in nodwyn's files).`,
    });
  }
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    stdin: Readable.from(stdin === undefined ? [] : [Buffer.from(stdin, 'utf8')]),
    write: (text) => void (stdout += text),
    error: (text) => void (stderr += text),
    interactive: false,
  };
  const code = await entry.item.run({ args, options, io });
  if (code !== 0) {
    throw serverErrors.error('SETUP_COMMAND_FAILED', {
      operation: `${name} ${args[0] ?? ''}`.trim(),
      remediation: `\`nodwyn ${name} ${args[0] ?? ''}\` refused (exit ${code}): ${(stderr || stdout).trim().split('\n')[0]}`,
    });
  }
  return { stdout, stderr };
}
