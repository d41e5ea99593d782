import { EnvelopeError } from '@nodwyn/plugin-api';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliCodes } from '../errors.js';

/** The built CLI a distribution bundle is made from (tools/build/build-cli.mjs writes it). */
export interface CliBuild {
  /** Its folder: `nodwyn.mjs`, `chunks/`, `web/`, `plugin-chunks.json`. */
  readonly dir: string;
  /** The chunk of each first-party plugin, relative to `dir`, by package name. */
  readonly pluginChunks: Readonly<Record<string, string>>;
}

/** Finds the built CLI this code runs from: the folder above it that has `plugin-chunks.json`. */
export function findCliBuild(): CliBuild {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const map = join(dir, 'plugin-chunks.json');
    if (existsSync(map) && existsSync(join(dir, 'nodwyn.mjs'))) return { dir, pluginChunks: JSON.parse(readFileSync(map, 'utf8')) as Record<string, string> };
    if (dirname(dir) === dir) break;
  }
  throw new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: CliCodes.DIST_CLI_NOT_BUILT,
    operation: 'dist.build',
    expected: 'the nodwyn command as installed (its dist/ folder with plugin-chunks.json)',
    remediation: 'nodwyn dist build bundles the built CLI: run it from an installed nodwyn (or after node tools/build/build-cli.mjs), not from sources or from a distribution bundle.',
  });
}
