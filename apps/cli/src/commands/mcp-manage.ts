import { EnvelopeError } from '@nodwyn/plugin-api';
import { KERNEL_STREAM } from '@nodwyn/kernel';
import { boot } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { CliCodes } from '../errors.js';
import { forTerminal } from '../terminal-text.js';
import { guarded } from './guarded.js';

const MCP_PLUGIN = '@nodwyn/plugin-mcp';

/**
 * `nodwyn mcp list|approve`: runs the MCP plugin's own `mcp` command with the booted runtime (the plugin
 * holds the servers, their status and the approvals); `nodwyn mcp serve` stays the CLI's.
 */
export function mcpManageCommand(args: readonly string[], options: { json?: boolean; yes?: boolean }): Promise<number> {
  return guarded(options.json, async () => {
    const runtime = await boot(cliBoot());
    try {
      const found = runtime.kernel.commands.list().find(({ item, owner }) => item.name === 'mcp' && owner === MCP_PLUGIN);
      if (!found) {
        throw new EnvelopeError({
          category: 'PRECONDITION_FAILED',
          code: CliCodes.MCP_PLUGIN_MISSING,
          operation: 'mcp',
          remediation: `${MCP_PLUGIN} is not loaded (disabled in the distribution, or it failed: see nodwyn plugins).`,
        });
      }
      const forPerson = (text: string) => forTerminal(runtime.kernel.shown(KERNEL_STREAM, text));
      return await found.item.run({
        args,
        options,
        io: { stdin: process.stdin, write: (t) => process.stdout.write(forPerson(t)), error: (t) => process.stderr.write(forPerson(t)), interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY) },
      });
    } finally {
      await runtime.close();
    }
  });
}
