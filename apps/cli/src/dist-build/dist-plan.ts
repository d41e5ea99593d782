import { EnvelopeError } from '@nodwyn/plugin-api';
import { resolvePlugin } from '@nodwyn/plugin-host';
import { locatePlugin, pluginRoot } from '@nodwyn/runtime';
import semver from 'semver';
import type { DistFile } from '../dist-file.js';
import { CliCodes } from '../errors.js';
import { bundledEntry, REQUIRED_SECURITY } from '../first-party.js';

/** A first-party plugin a bundle carries: the CLI's own copy. */
export interface FirstPartyPick {
  readonly package: string;
  readonly version: string;
  readonly range: string;
}

/** A third-party plugin a bundle carries: found where the distribution loader looks, baked in as built. */
export interface ThirdPartyPick extends FirstPartyPick {
  /** Its installed folder. */
  readonly folder: string;
  /** The module its package resolves to, which the bundle imports. */
  readonly entry: string;
  /** The trust ledger's hash of its installed files. */
  readonly hash: string;
}

/** What `nodwyn dist build` puts in a bundle: the plugins a distribution file names, resolved and checked. */
export interface DistPlan {
  readonly file: DistFile;
  readonly firstParty: readonly FirstPartyPick[];
  readonly thirdParty: readonly ThirdPartyPick[];
}

/**
 * Resolves the plugins of `file`: a first-party one is the CLI's copy, any other is found in the file's
 * folder, then the config folder (as `nodwyn --distribution` finds it). The required security plugins
 * are added unless the file is a test distribution. A plugin that cannot be found, or whose version is
 * outside its range, is an envelope naming it; an optional one is left out with a line on `notice`.
 */
export async function planDistribution(file: DistFile, notice: (line: string) => void): Promise<DistPlan> {
  const named = new Set(file.plugins.map((p) => p.package));
  const security = file.unsafeTest ? [] : REQUIRED_SECURITY.filter((name) => !named.has(name)).map((name) => ({ package: name, range: bundledEntry(name)!.range }));
  const firstParty: FirstPartyPick[] = [];
  const thirdParty: ThirdPartyPick[] = [];
  for (const wanted of [...security, ...file.plugins]) {
    const optional = 'optional' in wanted && wanted.optional === true && !REQUIRED_SECURITY.includes(wanted.package);
    try {
      const bundled = bundledEntry(wanted.package);
      if (bundled) {
        const version = (await bundled.load()).manifest.version;
        firstParty.push({ package: wanted.package, version: inRange(wanted.package, version, wanted.range, file), range: wanted.range });
      } else thirdParty.push(locate(wanted.package, wanted.range, file));
    } catch (error) {
      if (!optional) throw error;
      notice(`optional plugin ${wanted.package} is left out: ${error instanceof EnvelopeError ? error.envelope.remediation : String(error)}`);
    }
  }
  return { file, firstParty, thirdParty };
}

function locate(name: string, range: string, file: DistFile): ThirdPartyPick {
  const from = [file.dir, pluginRoot()];
  const located = locatePlugin(name, from);
  if (!located) {
    throw new EnvelopeError({
      category: 'NOT_FOUND',
      code: CliCodes.DIST_PLUGIN_NOT_FOUND,
      operation: 'dist.build',
      failed_parameter: 'plugins',
      received_value: name,
      expected: `a first-party plugin or a package installed in ${from.join(' or ')}`,
      remediation: `Plugin ${name}, named in ${file.path}, is not a first-party plugin and is not installed in ${from.join(' or ')}; run npm install ${name} in ${file.dir}, or fix its name.`,
    });
  }
  const { installed, resolveFrom } = located;
  // The file the host would import, so an import-only exports map bundles as it loads.
  const { entry } = resolvePlugin(name, resolveFrom);
  return { package: name, version: inRange(name, installed.version, range, file), range, folder: installed.folder, entry, hash: installed.hash };
}

function inRange(name: string, version: string, range: string, file: DistFile): string {
  if (semver.valid(version) && semver.validRange(range) && semver.satisfies(version, range)) return version;
  throw new EnvelopeError({
    category: 'PRECONDITION_FAILED',
    code: CliCodes.DIST_RANGE_NOT_SATISFIED,
    operation: 'dist.build',
    failed_parameter: 'plugins.range',
    received_value: `${name}@${version}`,
    expected: range,
    remediation: `${file.path} asks for ${name} ${range}, but the one found is ${version}; install a version in the range, or change the range.`,
  });
}
