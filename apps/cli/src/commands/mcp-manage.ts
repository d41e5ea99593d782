import { EnvelopeError } from '@nodwyn/plugin-api';
import { boot } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { CliCodes } from '../errors.js';
import { guarded } from './guarded.js';
import { runInTerminal } from './plugin-commands.js';

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
      return await runInTerminal(runtime, found.item, args, options);
    } finally {
      await runtime.close();
    }
  });
}
