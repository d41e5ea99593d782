import { withRuntime, type RuntimeErrorCode, type WorkspaceScope } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { EXIT } from '../exit-codes.js';
import { formatTable } from '../output.js';
import { jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';

/**
 * `nodwyn plugins`: name, version, apiVersion and state of each plugin of the distribution, then the
 * front ends they provide, the default one marked. With `--json`, each plugin's row lists its front ends.
 */
export function pluginsCommand(options: { json?: boolean }): Promise<number> {
  return guarded(options.json, () =>
    withRuntime(cliBoot(), async (scope) => {
      // A third-party plugin the ledger kept from loading reads `unapproved`, not `failed`.
      const report = scope.host.report().map((p) => (p.envelope?.code === ('PLUGIN_UNAPPROVED' satisfies RuntimeErrorCode) ? { ...p, state: 'unapproved' as const } : p));
      const frontends = frontendRows(scope);
      if (options.json) {
        const rows = report.map((p) => ({ ...p, frontends: frontends.filter((f) => f.owner === p.name).map(({ id, description, default: isDefault }) => ({ id, description, default: isDefault })) }));
        process.stdout.write(`${jsonText(rows, 2)}\n`);
        return EXIT.OK;
      }
      const rows = report.map((p) => [p.name, p.version ?? '?', p.apiVersion ?? '?', p.state, p.envelope ? `${p.envelope.code ?? p.envelope.category}: ${p.envelope.remediation}` : '']);
      process.stdout.write(formatTable(['PLUGIN', 'VERSION', 'API', 'STATE', 'NOTE'], rows));
      const wanted = scope.distribution.defaultFrontend;
      const missing = wanted !== undefined && !frontends.some((f) => f.id === wanted) ? [[wanted, '-', '*', 'the default front end, but no started plugin provides it']] : [];
      if (frontends.length > 0 || missing.length > 0) {
        const lines = frontends.map((f) => [f.id, f.owner, f.default ? '*' : '', f.description]);
        process.stdout.write(`\n${formatTable(['FRONTEND', 'PLUGIN', 'DEFAULT', 'DESCRIPTION'], [...lines, ...missing])}`);
      }
      return EXIT.OK;
    }),
  );
}

function frontendRows(scope: WorkspaceScope): { id: string; description: string; owner: string; default: boolean }[] {
  return scope.host.frontends().map((f) => ({ ...f, default: f.id === scope.distribution.defaultFrontend }));
}
