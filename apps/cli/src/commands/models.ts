import { modelsOf, type ModelInfo } from '@nodwyn/plugin-api';
import { withRuntime } from '@nodwyn/runtime';
import { cliBoot } from '../cli-boot.js';
import { EXIT } from '../exit-codes.js';
import { formatTable } from '../output.js';
import { jsonText } from '../terminal-text.js';
import { guarded } from './guarded.js';

function usd(value: number | undefined): string {
  return value === undefined ? '-' : `$${value.toFixed(value < 0.1 ? 3 : 2)}`;
}

function tokens(value: number | undefined): string {
  return value === undefined ? '-' : `${Math.round(value / 1000)}k`;
}

/**
 * `nodwyn models`: every provider of the distribution with its models and prices (USD per million tokens),
 * the plugin's table extended by `[prices.<provider>."<model>"]`. The provider's configured model is marked.
 */
export function modelsCommand(options: { json?: boolean }): Promise<number> {
  return guarded(options.json, () =>
    withRuntime(cliBoot(), async ({ kernel, config }) => {
      const providers = kernel.providers.list().map(({ item, owner }) => {
        const configured = config.provider?.[item.id];
        const chosen = typeof configured === 'object' && configured !== null ? configured.model : undefined;
        return { id: item.id, description: item.description, owner, default: config.provider?.default === item.id, model: chosen, models: modelsOf(item.id, item.models ?? [], config) };
      });
      if (options.json) {
        process.stdout.write(`${jsonText(providers, 2)}\n`);
        return EXIT.OK;
      }
      const row = (id: string, model: ModelInfo | undefined, marked: boolean, note: string) => [
        id,
        model ? `${model.id}${marked ? ' *' : ''}` : note,
        usd(model?.price?.input),
        usd(model?.price?.output),
        usd(model?.price?.cache_read),
        usd(model?.price?.cache_write),
        tokens(model?.contextTokens),
      ];
      const rows = providers.flatMap((p) =>
        p.models.length === 0 ? [row(p.id, undefined, false, p.description)] : p.models.map((m) => row(p.id, m, m.id === p.model, '')),
      );
      process.stdout.write(formatTable(['PROVIDER', 'MODEL', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'CONTEXT'], rows));
      process.stdout.write('Prices in USD per million tokens; * marks [provider.<id>] model in config. Add or override one with [prices.<provider>."<model>"] in config.toml.\n');
      return EXIT.OK;
    }),
  );
}
