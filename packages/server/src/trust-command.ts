import { changedFiles, shownName, type RepoTrust } from '@nodwyn/runtime';
import type { CommandContext } from './command-context.js';

const APPLIES = 'The agent reads it when it opens the workspace: trusting takes effect in a new `nodwyn`, or after `nodwyn serve` restarts.';

/**
 * `/trust`: where this workspace's repository config (`.nodwyn/`) stands with the person, read now. It
 * only tells: trusting is a person's review at a terminal (`nodwyn trust`), never a command a front end
 * (or the model's text in it) can give.
 */
export function trustCommand(ctx: CommandContext): string {
  return describe(ctx.scope.trust(), ctx.scope.workspace);
}

function describe(trust: RepoTrust, workspace: string): string {
  const { folder } = trust;
  switch (trust.status) {
    case 'none':
      return `No repository config here: ${workspace} has no .nodwyn/ folder (or an empty one), so there is nothing to trust.`;
    case 'untrusted':
      return [`${shownName(folder)} in ${workspace} is not trusted, so nodwyn ignores it.`, `To use it, review and trust it in a terminal: cd ${workspace} && nodwyn trust`, APPLIES].join('\n');
    case 'changed': {
      const changed = trust.record ? changedFiles(folder, trust.record) : [];
      return [
        `${shownName(folder)} in ${workspace} changed since you trusted it${changed.length > 0 ? ` (${changed.join(', ')})` : ''}, so nodwyn ignores it.`,
        `Review it again in a terminal: cd ${workspace} && nodwyn trust`,
        APPLIES,
      ].join('\n');
    }
    case 'trusted':
      return `${shownName(folder)} in ${workspace} is trusted (${folder.entries.length} file${folder.entries.length === 1 ? '' : 's'}, ${folder.hash}, since ${trust.record?.trusted_at ?? 'an earlier review'}). Revoke it in a terminal: nodwyn trust --revoke`;
  }
}
