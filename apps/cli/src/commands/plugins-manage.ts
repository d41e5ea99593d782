import { EnvelopeError } from '@nodwyn/plugin-api';
import {
  configPath,
  describeChanges,
  locatePlugin,
  parseConfigToml,
  PluginLedger,
  pluginChanges,
  pluginLedgerPath,
  pluginRoot,
  type LocatedPlugin,
} from '@nodwyn/runtime';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askYesNo, canAsk } from '../confirmer.js';
import { chosenDistribution } from '../distribution-choice.js';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { escapeForReview } from '../trust-review.js';
import { guarded } from './guarded.js';

const SHOWN_FILES = 40;

/** `nodwyn plugins approve PKG [--yes]`: review the installed files of a third-party plugin and pin them in the ledger. */
export function pluginsApproveCommand(name: string, options: { yes?: boolean }): Promise<number> {
  return guarded(false, () => approve(name, options.yes, locate(name)));
}

/**
 * `nodwyn plugins add SPEC [--yes]`: `npm install --prefix <config folder> SPEC` (npm's configured
 * registry, or a tarball or folder path), then `[[distribution.plugins]]` in config.toml, then approval.
 */
export function pluginsAddCommand(spec: string, options: { yes?: boolean }): Promise<number> {
  return guarded(false, async () => {
    const root = pluginRoot();
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const before = prefixDependencies(root);
    npm(['install', '--prefix', root, '--no-audit', '--no-fund', spec], spec);
    const after = prefixDependencies(root);
    const name = Object.keys(after).find((dep) => before[dep] !== after[dep]) ?? registryName(spec);
    const located = locate(name, [root]);
    const asked = /^(@[^/@]+\/)?[^/@]+@(.+)$/.exec(spec)?.[2];
    const range = asked && !asked.includes(':') ? asked : `^${located.installed.version}`;
    if (addToConfig(name, range)) process.stdout.write(`added ${name} (${range}) to ${configPath()}\n`);
    return approve(name, options.yes, located);
  });
}

/**
 * `nodwyn plugins update [PKG] [--yes]`: `npm update` it (every plugin installed in the config folder
 * when none is named) in the config folder, then, for each, show what changed and ask again. The ledger
 * pins the new files only once approved: until then the updated plugin does not run.
 */
export function pluginsUpdateCommand(name: string | undefined, options: { yes?: boolean }): Promise<number> {
  return guarded(false, async () => {
    const root = pluginRoot();
    const names = name === undefined ? Object.keys(prefixDependencies(root)) : [name];
    if (names.length === 0) {
      process.stdout.write(`no plugin is installed in ${root}; add one with \`nodwyn plugins add PKG\`\n`);
      return EXIT.OK;
    }
    npm(['update', '--prefix', root, '--no-audit', '--no-fund', ...names], names.join(' '));
    for (const each of names) await approve(each, options.yes, locate(each, [root]));
    return EXIT.OK;
  });
}

/** `nodwyn plugins remove PKG`: uninstall it from the config folder, drop it from config.toml and the ledger. */
export function pluginsRemoveCommand(name: string): Promise<number> {
  return guarded(false, async () => {
    const root = pluginRoot();
    if (prefixDependencies(root)[name] !== undefined) npm(['uninstall', '--prefix', root, '--no-audit', '--no-fund', name], name);
    const dropped = removeFromConfig(name);
    const revoked = PluginLedger.open(pluginLedgerPath()).revoke(name);
    process.stdout.write(`removed ${name}${dropped ? `; dropped it from ${configPath()}` : ''}${revoked ? '; forgot its approval' : ''}\n`);
    return EXIT.OK;
  });
}

async function approve(name: string, yes: boolean | undefined, located: LocatedPlugin): Promise<number> {
  const { installed } = located;
  const ledger = PluginLedger.open(pluginLedgerPath());
  const status = ledger.status(installed);
  if (status === 'approved') {
    process.stdout.write(`${name} ${installed.version} is already approved (${installed.hash})\n`);
    return EXIT.OK;
  }
  const approval = ledger.get(name);
  const bytes = installed.files.reduce((sum, f) => sum + f.data.length, 0);
  const lines = [`Third-party plugin ${name} ${installed.version} in ${escapeForReview(installed.folder)}: ${installed.files.length} file(s), ${bytes} bytes.`, `Content hash: ${installed.hash}`];
  if (status === 'changed' && approval) lines.push(`Changed since you approved ${approval.version} (${approval.approved_at}): ${escapeForReview(describeChanges(pluginChanges(approval, installed)))}`);
  for (const file of installed.files.slice(0, SHOWN_FILES)) lines.push(`  ${escapeForReview(file.path)} (${file.data.length} bytes)`);
  if (installed.files.length > SHOWN_FILES) lines.push(`  … and ${installed.files.length - SHOWN_FILES} more`);
  process.stdout.write(`${lines.join('\n')}\n`);
  if (!(await confirmed(yes, name))) {
    process.stderr.write(`nodwyn: ${name} not approved; it will not load\n`);
    return EXIT.OK;
  }
  // The ledger pins what was shown: a file changed while the person read is a new hash, asked again.
  ledger.approve(installed);
  process.stdout.write(`approved ${name} ${installed.version} (${installed.hash})\n`);
  return EXIT.OK;
}

async function confirmed(yes: boolean | undefined, name: string): Promise<boolean> {
  if (yes) return true;
  if (canAsk()) return askYesNo(`\nRun ${name} with these files? It runs with your privileges in every session.`);
  throw new EnvelopeError({
    category: 'CONFIRMATION_REQUIRED',
    code: CliCodes.PLUGIN_CONFIRMATION_REQUIRED,
    operation: 'plugins.approve',
    received_value: name,
    remediation: `Nobody is at a terminal to confirm. Review the files printed above, then run \`nodwyn plugins approve ${name} --yes\`.`,
  });
}

/** The installed plugin `name`, from the distribution file's folder, then the config folder. */
function locate(name: string, from?: readonly string[]): LocatedPlugin {
  const file = chosenDistribution().file;
  const folders = from ?? [...(file ? [file.dir] : []), pluginRoot()];
  const located = locatePlugin(name, folders);
  if (located) return located;
  throw new EnvelopeError({
    category: 'NOT_FOUND',
    code: CliCodes.PLUGIN_NOT_INSTALLED,
    operation: 'plugins',
    received_value: name,
    remediation: `${name} is installed in none of ${folders.join(', ')} (their node_modules or above); install it with \`nodwyn plugins add ${name}\`.`,
  });
}

function npm(args: readonly string[], what: string): void {
  process.stderr.write(`nodwyn: npm ${args.join(' ')}\n`);
  const result = spawnSync('npm', args, { stdio: ['ignore', process.stderr, process.stderr], timeout: 300_000 });
  if (result.status === 0) return;
  throw new EnvelopeError({
    category: 'UPSTREAM_UNAVAILABLE',
    code: CliCodes.PLUGIN_INSTALL_FAILED,
    operation: `plugins.${args[0]}`,
    received_value: what,
    remediation: `npm ${args[0]} ${what} failed (${result.error ? result.error.message : `exit ${result.status}`}); see npm's output above, fix it (registry, network, name) and try again.`,
  });
}

function prefixDependencies(root: string): Record<string, string> {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return {};
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> };
  return parsed.dependencies ?? {};
}

function registryName(spec: string): string {
  return /^((@[^/@]+\/)?[^/@]+)/.exec(spec)?.[1] ?? spec;
}

function configuredPlugins(text: string, path: string): string[] {
  const config = parseConfigToml(text, path) as { distribution?: { plugins?: { package?: string }[] } };
  return (config.distribution?.plugins ?? []).flatMap((p) => (p.package ? [p.package] : []));
}

/** Appends `[[distribution.plugins]]` for `name` unless config.toml names it already; true when it did. */
function addToConfig(name: string, range: string): boolean {
  const path = configPath();
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (configuredPlugins(text, path).includes(name)) return false;
  const next = `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}\n[[distribution.plugins]]\npackage = ${JSON.stringify(name)}\nrange = ${JSON.stringify(range)}\n`;
  configuredPlugins(next, path);
  writeAtomically(path, next);
  return true;
}

/** Drops the `[[distribution.plugins]]` table naming `name` from config.toml; true when it did. */
function removeFromConfig(name: string): boolean {
  const path = configPath();
  if (!existsSync(path)) return false;
  const lines = readFileSync(path, 'utf8').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let end = i + 1;
    if (lines[i]!.trim() === '[[distribution.plugins]]') while (end < lines.length && !lines[end]!.trim().startsWith('[')) end += 1;
    const block = lines.slice(i, end);
    const names = block.length > 1 && new RegExp(`^\\s*package\\s*=\\s*["']${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']\\s*$`).test(block.join('\n').split('\n').find((l) => /^\s*package\s*=/.test(l)) ?? '');
    if (!names) kept.push(...block);
    i = end;
  }
  const next = kept.join('\n');
  if (next === lines.join('\n')) return false;
  configuredPlugins(next, path);
  writeAtomically(path, next);
  return true;
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}
