import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PluginLedger } from '../../packages/runtime/src/plugin-ledger.js';
import { locatePlugin, thirdPartyEntry } from '../../packages/runtime/src/third-party-entry.js';
import { percentile, type Row } from './stats.js';

const RUNS = 200;

/**
 * The trust ledger's check of one third-party plugin at load (find its folder, hash its files, compare
 * with the ledger), for a plugin the size of a built one: a package.json, a README and 30 modules with
 * their type declarations and source maps, about 300 KB.
 */
export function benchPlugins(dir: string): Row[] {
  const root = join(dir, 'plugins-bench');
  const folder = join(root, 'node_modules', '@acme', 'nodwyn-plugin-bench');
  mkdirSync(join(folder, 'dist'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: '@acme/nodwyn-plugin-bench', version: '1.2.3', type: 'module', main: 'dist/index.js' }));
  writeFileSync(join(folder, 'README.md'), '# bench\n'.repeat(200));
  for (let i = 0; i < 30; i += 1) {
    writeFileSync(join(folder, 'dist', `module-${i}.js`), `export const value${i} = ${JSON.stringify('x'.repeat(5000))};\n`);
    writeFileSync(join(folder, 'dist', `module-${i}.d.ts`), `export declare const value${i}: string;\n`.repeat(20));
    writeFileSync(join(folder, 'dist', `module-${i}.js.map`), JSON.stringify({ version: 3, mappings: 'AAAA;'.repeat(800) }));
  }
  const ledgerPath = join(dir, 'plugins-bench.lock.json');
  PluginLedger.open(ledgerPath).approve(locatePlugin('@acme/nodwyn-plugin-bench', [root])!.installed);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    thirdPartyEntry({ package: '@acme/nodwyn-plugin-bench', range: '^1.0.0', from: [root] }, PluginLedger.open(ledgerPath), () => {
      throw new Error('the approved plugin was reported unapproved');
    });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const p50 = percentile(samples, 50);
  return [
    {
      name: 'trust ledger check per third-party plugin (p50)',
      value: `${p50.toFixed(2)} ms`,
      target: '≤ 5 ms',
      ok: p50 <= 5,
      note: `p95 ${percentile(samples, 95).toFixed(2)} ms; 92 files, ~330 KB hashed, ledger read each time`,
    },
  ];
}
