import type { BootOptions, Config } from '@nodwyn/runtime';
import { chosenDistribution } from './distribution-choice.js';
import { tellPluginFailure } from './plugin-failure-line.js';
import { forTerminal } from './terminal-text.js';

/** Choices of one command that change what plugins see. */
export interface CliBootFlags {
  /** `nodwyn run --judge`: the judge scores every ask's plan (`[judge] mode = "on"`). */
  readonly judge?: boolean;
}

/**
 * How a `nodwyn` command boots the current directory: the chosen distribution (`--distribution FILE`,
 * else the default one) with its default config under the person's, notices and plugins that did not
 * load on stderr.
 */
export function cliBoot(flags: CliBootFlags = {}): BootOptions {
  const chosen = chosenDistribution();
  return {
    distribution: chosen.source,
    defaults: chosen.defaults,
    // Notices go to stderr, so --json stays pure; they can name a repository's files, so escaped.
    onNotice: (line) => process.stderr.write(`nodwyn: ${forTerminal(line)}\n`),
    onPluginFailed: tellPluginFailure,
    overrides: flags.judge ? judgeOn : undefined,
  };
}

function judgeOn(config: Config): Config {
  const section = config.judge;
  const judge = typeof section === 'object' && section !== null ? (section as Record<string, unknown>) : {};
  return { ...config, judge: { ...judge, mode: 'on' } };
}
