import { EnvelopeError } from '@nodwyn/plugin-api';
import { fileHash } from '@nodwyn/runtime';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readDistFile } from '../dist-file.js';
import { bundleDistribution } from '../dist-build/bundle-distribution.js';
import { findCliBuild, type CliBuild } from '../dist-build/cli-build.js';
import { planDistribution, type DistPlan } from '../dist-build/dist-plan.js';
import { copyNativeModules, type CopiedModule } from '../dist-build/native-modules.js';
import { CliCodes } from '../errors.js';
import { DESKTOP_PACKAGE, WEB_PACKAGE } from '../frontend-packages.js';
import { jsonText } from '../terminal-text.js';
import { VERSION } from '../version.js';
import { guarded } from './guarded.js';

/** What `nodwyn dist build` writes to OUT/manifest.json: what the bundle carries, to check and to record. */
export interface DistManifest {
  readonly name: string;
  readonly version: string;
  /** The nodwyn release the bundle was built from. */
  readonly nodwyn: string;
  readonly unsafeTestDistribution: boolean;
  readonly bundle: { readonly file: string; readonly hash: string };
  readonly plugins: readonly { readonly package: string; readonly version: string; readonly range: string; readonly source: 'first-party' | 'third-party'; readonly hash: string }[];
  readonly nodeModules: readonly CopiedModule[];
}

/**
 * `nodwyn dist build FILE --out DIR [--force] [--json]`: bundles the distribution FILE describes into
 * DIR/<name>.mjs, copies the packages it loads from disk into DIR/node_modules and writes
 * DIR/manifest.json. Third-party plugins baked in are printed with their versions and hashes.
 */
export function distBuildCommand(path: string, options: { out: string; force?: boolean; json?: boolean }): Promise<number> {
  return guarded(options.json, async () => {
    const file = readDistFile(path, 'FILE');
    const out = resolve(options.out);
    const cli = findCliBuild();
    prepareOut(out, options.force === true);
    const plan = await planDistribution(file, (line) => process.stderr.write(`nodwyn: ${line}\n`));
    const bundle = join(out, `${file.name}.mjs`);
    await bundleDistribution(plan, cli, bundle);
    const copied = copyNativeModules(plan, cli, out);
    copyWebConsole(plan, cli, out);
    const manifest = distManifest(plan, cli, bundle, copied);
    writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (options.json) process.stdout.write(`${jsonText(manifest)}\n`);
    else process.stdout.write(describe(manifest, out));
    return 0;
  });
}

function prepareOut(out: string, force: boolean): void {
  const entries = existsSync(out) ? readdirSync(out) : [];
  if (entries.length > 0 && !force) {
    throw new EnvelopeError({
      category: 'PRECONDITION_FAILED',
      code: CliCodes.DIST_OUT_NOT_EMPTY,
      operation: 'dist.build',
      failed_parameter: '--out',
      received_value: out,
      expected: 'an empty or missing folder',
      remediation: `${out} is not empty (${entries.length} entries); give --out a new folder, or add --force to replace the build's files there.`,
    });
  }
  // A forced build starts from the bundle's own node_modules afresh; other files in the folder stay.
  rmSync(join(out, 'node_modules'), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
}

/** The web console's files, for a distribution whose web or desktop front end serves them. */
function copyWebConsole(plan: DistPlan, cli: CliBuild, out: string): void {
  const web = join(cli.dir, 'web');
  if (plan.firstParty.some((p) => p.package === WEB_PACKAGE || p.package === DESKTOP_PACKAGE) && existsSync(web)) cpSync(web, join(out, 'web'), { recursive: true });
}

function distManifest(plan: DistPlan, cli: CliBuild, bundle: string, copied: readonly CopiedModule[]): DistManifest {
  const chunkHash = (name: string) => {
    const chunk = cli.pluginChunks[name];
    return chunk ? fileHash(readFileSync(join(cli.dir, chunk))) : 'sha256:?';
  };
  return {
    name: plan.file.name,
    version: plan.file.version,
    nodwyn: VERSION,
    unsafeTestDistribution: plan.file.unsafeTest,
    bundle: { file: `${plan.file.name}.mjs`, hash: fileHash(readFileSync(bundle)) },
    plugins: [
      ...plan.firstParty.map((p) => ({ package: p.package, version: p.version, range: p.range, source: 'first-party' as const, hash: chunkHash(p.package) })),
      ...plan.thirdParty.map((p) => ({ package: p.package, version: p.version, range: p.range, source: 'third-party' as const, hash: p.hash })),
    ],
    nodeModules: copied,
  };
}

function describe(manifest: DistManifest, out: string): string {
  const third = manifest.plugins.filter((p) => p.source === 'third-party');
  const lines = [
    `built ${join(out, manifest.bundle.file)} (${manifest.name} ${manifest.version}, nodwyn ${manifest.nodwyn}) ${manifest.bundle.hash}`,
    `first-party plugins: ${manifest.plugins.filter((p) => p.source === 'first-party').map((p) => `${p.package} ${p.version}`).join(', ')}`,
    ...(third.length === 0 ? [] : ['third-party plugins baked in (review them: they run without asking, as part of the distribution):', ...third.map((p) => `  ${p.package} ${p.version} ${p.hash}`)]),
    `node_modules: ${manifest.nodeModules.map((m) => `${m.package} ${m.version}`).join(', ')}`,
    `manifest: ${join(out, 'manifest.json')}`,
  ];
  return `${lines.join('\n')}\n`;
}
