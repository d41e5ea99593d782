import { EnvelopeError } from '@nodwyn/plugin-api';
import {
  changedFiles,
  checkDataDir,
  dataDir,
  repoSettings,
  repoTrust,
  TrustStore,
  trustRecordFor,
  trustStorePath,
  unreviewableEntries,
  userOnlyPlugins,
  type RepoFolder,
  type RepoTrust,
} from '@nodwyn/runtime';
import { realpathSync } from 'node:fs';
import { askYesNo, canAsk } from '../confirmer.js';
import { chosenDistribution } from '../distribution-choice.js';
import { CliCodes } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { escapeForReview, formatReview } from '../trust-review.js';
import { guarded } from './guarded.js';

/** Options of `nodwyn trust`. */
export interface TrustFlags {
  yes?: boolean;
  show?: boolean;
  revoke?: boolean;
  status?: boolean;
  json?: boolean;
}

/** `nodwyn trust [--yes] [--show] | --revoke | --status [--json]`, for the current directory. */
export function trustCommand(flags: TrustFlags): Promise<number> {
  return guarded(flags.json, async () => {
    checkDataDir(dataDir());
    // The real path, as boot uses: the same repository reached through a symlink is the same workspace,
    // and a copy elsewhere is another one.
    const workspace = realpathSync(process.cwd());
    if (flags.revoke) return revoke(workspace);
    const trust = repoTrust(workspace);
    if (flags.status) return status(trust, flags.json);
    return grant(trust, flags);
  });
}

async function grant(trust: RepoTrust, flags: TrustFlags): Promise<number> {
  const { folder } = trust;
  if (trust.status === 'none' || !trust.store) throw nothingToTrust(folder);
  refuseUnreviewable(folder);
  // Parsed before asking: trusting a file nodwyn would then refuse to load helps nobody. Which plugin
  // sections only the person may set, the distribution's plugins declare in their manifests.
  const settings = repoSettings(folder, await userOnlyPlugins(chosenDistribution().source, process.env, chosenDistribution().defaults));
  if (trust.status === 'trusted' && !flags.show) {
    process.stdout.write(`already trusted: ${escapeForReview(folder.dir)} (${folder.hash})\n`);
    return EXIT.OK;
  }
  process.stdout.write(formatReview(trust, settings, flags.show === true));
  if (trust.status === 'trusted') {
    process.stdout.write('Already trusted; nothing changed.\n');
    return EXIT.OK;
  }
  if (!(await confirmed(flags.yes, folder))) {
    process.stderr.write('nodwyn: not trusted; nothing changed\n');
    return EXIT.OK;
  }
  // The record pins the snapshot that was shown, so an edit made while the person read is not trusted.
  trust.store.set(folder.workspace, trustRecordFor(folder));
  process.stdout.write(`trusted ${escapeForReview(folder.dir)} (${folder.entries.length} file(s), ${folder.hash})\n`);
  return EXIT.OK;
}

async function confirmed(yes: boolean | undefined, folder: RepoFolder): Promise<boolean> {
  if (yes) return true;
  if (canAsk()) return askYesNo(`\nTrust these files for ${escapeForReview(folder.workspace)}? nodwyn will load them in this folder until they change.`);
  throw new EnvelopeError({
    category: 'CONFIRMATION_REQUIRED',
    code: CliCodes.TRUST_CONFIRMATION_REQUIRED,
    operation: 'trust',
    received_value: folder.dir,
    remediation: 'Nobody is at a terminal to confirm. Review the files printed above, then run `nodwyn trust --yes`.',
  });
}

function revoke(workspace: string): number {
  const had = TrustStore.open(trustStorePath()).delete(workspace);
  process.stdout.write(had ? `revoked trust in ${escapeForReview(workspace)}\n` : `${escapeForReview(workspace)} was not trusted\n`);
  return EXIT.OK;
}

function status(trust: RepoTrust, json: boolean | undefined): number {
  const { folder, record } = trust;
  const changes = trust.status === 'changed' && record ? changedFiles(folder, record) : [];
  if (json) {
    const out = { workspace: folder.workspace, status: trust.status, hash: trust.status === 'none' ? null : folder.hash, trusted_hash: record?.hash ?? null, trusted_at: record?.trusted_at ?? null, changes };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return EXIT.OK;
  }
  const dir = escapeForReview(folder.dir);
  const detail: Record<typeof trust.status, string> = {
    none: folder.own ? `${dir} is your own nodwyn folder, not a repository's` : `no repository configuration in ${dir}`,
    untrusted: `${dir} (review it and run \`nodwyn trust\`)`,
    changed: `${dir} (${changes.map(escapeForReview).join(', ')}; review it and run \`nodwyn trust\`)`,
    trusted: `${dir} (since ${record?.trusted_at ?? '?'}, ${folder.hash})`,
  };
  process.stdout.write(`${trust.status}: ${detail[trust.status]}\n`);
  return EXIT.OK;
}

function refuseUnreviewable(folder: RepoFolder): void {
  const bad = unreviewableEntries(folder);
  if (bad.length === 0) return;
  const list = bad.map((e) => `${e.path}: ${e.data.toString('utf8')}`).join('; ');
  throw new EnvelopeError({
    category: 'VALIDATION_FAILED',
    code: CliCodes.REPO_CONFIG_UNREVIEWABLE,
    operation: 'trust',
    received_value: escapeForReview(list),
    expected: 'regular files, 256 entries and 1 MiB at most',
    remediation: `nodwyn reviews only regular files in ${escapeForReview(folder.dir)}; replace or remove ${escapeForReview(bad[0]!.path)} (and any other listed) and run \`nodwyn trust\` again.`,
  });
}

function nothingToTrust(folder: RepoFolder): EnvelopeError {
  return new EnvelopeError({
    category: 'NOT_FOUND',
    code: CliCodes.TRUST_NOTHING_TO_TRUST,
    operation: 'trust',
    received_value: folder.dir,
    remediation: folder.own
      ? `${folder.dir} is your own nodwyn folder (NODWYN_HOME or the config folder), which applies everywhere without trust.`
      : `There is nothing to trust in ${folder.workspace}: no .nodwyn/ folder, AGENTS.md, CLAUDE.md or .mcp.json. Run nodwyn trust in the repository's root folder.`,
  });
}
