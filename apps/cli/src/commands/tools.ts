import { withRuntime } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { EXIT } from '../exit-codes.js';
import { formatTable } from '../output.js';
import { jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';

/** `nodwyn tools`: the model-visible tools with description, tier and input schema. */
export function toolsCommand(options: { json?: boolean }): Promise<number> {
  return guarded(options.json, () =>
    withRuntime(cliBoot(), async ({ kernel }) => {
      const tools = kernel.primitives.list().filter((p) => p.visibility === 'model');
      if (options.json) {
        const out = tools.map((t) => ({ name: t.name, description: t.description, tier: t.tier, owner: t.owner, input_schema: t.inputSchema }));
        process.stdout.write(`${jsonText(out, 2)}\n`);
      } else {
        const rows = tools.map((t) => [t.name, t.tier, t.owner, t.description.split('\n')[0] ?? '']);
        process.stdout.write(formatTable(['TOOL', 'TIER', 'PLUGIN', 'DESCRIPTION'], rows));
      }
      return EXIT.OK;
    }),
  );
}
