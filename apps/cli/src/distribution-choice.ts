import type { Config, DistributionSource } from '@nodwyn/runtime';
import { readDistFile, type DistFile } from './dist-file.js';
import { bakedGate, defaultDistribution, fileDistribution, ledgerGate } from './distribution.js';
import { embeddedDistFile, embeddedDistribution } from './embedded-distribution.js';
import { tellPluginFailure } from './plugin-failure-line.js';

/** The environment variable naming a distribution file, as `--distribution FILE` does. */
export const DISTRIBUTION_ENV = 'NODWYN_DISTRIBUTION';

/** What a command boots: a distribution source and the default config under the person's own. */
export interface ChosenDistribution {
  readonly source: DistributionSource;
  readonly defaults?: Config;
  readonly file?: DistFile;
}

/**
 * Takes `--distribution FILE` (or `--distribution=FILE`) off the root of `argv` (before the command name)
 * and puts its absolute path in `NODWYN_DISTRIBUTION`, so the daemon a command starts runs the same one.
 * Answers the arguments without it.
 */
export function takeDistributionFlag(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const out = argv.slice(0, 2);
  let i = 2;
  for (; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) break;
    if (arg === '--distribution' && i + 1 < argv.length) {
      env[DISTRIBUTION_ENV] = readDistFile(argv[i + 1]!).path;
      i += 1;
    } else if (arg.startsWith('--distribution=')) env[DISTRIBUTION_ENV] = readDistFile(arg.slice('--distribution='.length)).path;
    else out.push(arg);
  }
  return [...out, ...argv.slice(i)];
}

let chosen: ChosenDistribution | undefined;

/**
 * The distribution every command of this process boots: the file `NODWYN_DISTRIBUTION` names, else the
 * one a `nodwyn dist build` bundle carries, else the default one. Read once; a test distribution prints
 * its warning on stderr then.
 */
export function chosenDistribution(env: NodeJS.ProcessEnv = process.env): ChosenDistribution {
  if (chosen) return chosen;
  const ledger = ledgerGate(env, tellPluginFailure);
  const path = env[DISTRIBUTION_ENV];
  const embedded = path ? undefined : embeddedDistribution();
  if (!path && !embedded) {
    chosen = { source: (config, root) => defaultDistribution(config, root, ledger) };
    return chosen;
  }
  const file = embedded ? embeddedDistFile(embedded, process.argv[1] ?? '.') : readDistFile(path!);
  // Plugins baked into a bundle were reviewed when it was built; the ledger still gates those added later.
  const gate = embedded ? bakedGate(embedded.baked, ledger) : ledger;
  if (file.unsafeTest) {
    process.stderr.write(
      `nodwyn: WARNING: ${file.path} is an UNSAFE TEST DISTRIBUTION (unsafe_test_distribution = true): the required security plugins (keychain, redaction, egress, judge) are NOT added. Never use it with real credentials or real work.\n`,
    );
  }
  const config = file.frontend ? { ...file.config, distribution: { ...file.config.distribution, frontend: file.config.distribution?.frontend ?? file.frontend } } : file.config;
  chosen = { source: fileDistribution(file, gate), defaults: config, file };
  return chosen;
}
