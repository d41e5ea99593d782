import { withRuntime } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { EXIT } from '../exit-codes.js';
import { formatTable } from '../output.js';
import { jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';

/** `nodwyn plugins`: name, version, apiVersion and state of each plugin of the distribution. */
export function pluginsCommand(options: { json?: boolean }): Promise<number> {
  return guarded(options.json, () =>
    withRuntime(cliBoot(), async ({ host }) => {
      const report = host.report();
      if (options.json) process.stdout.write(`${jsonText(report, 2)}\n`);
      else {
        const rows = report.map((p) => [p.name, p.version ?? '?', p.apiVersion ?? '?', p.state, p.envelope ? `${p.envelope.code ?? p.envelope.category}: ${p.envelope.remediation}` : '']);
        process.stdout.write(formatTable(['PLUGIN', 'VERSION', 'API', 'STATE', 'NOTE'], rows));
      }
      return EXIT.OK;
    }),
  );
}
