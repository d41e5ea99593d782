import { createHash } from 'node:crypto';
import type { PluginStore } from '@nodwyn/plugin-api';
import { specDigest, type ServerSpec } from './server-spec.js';

/** What `nodwyn mcp approve` records for one server of one workspace. */
interface Approval {
  readonly digest: string;
  readonly at: string;
}

function key(workspace: string, server: string): string {
  const folder = createHash('sha256').update(workspace).digest('hex').slice(0, 32);
  return `approval:${folder}:${server}`;
}

/**
 * The person's approvals of `.mcp.json` servers, in the plugin's store (the kernel's database, outside the
 * workspace, so a repository cannot approve its own servers). Keyed by workspace and server name, and
 * pinned to the definition's digest: a changed command, args, env or url needs approval again.
 */
export interface Approvals {
  approved(spec: ServerSpec): boolean;
  approve(spec: ServerSpec): void;
}

/** Approvals of the servers of `workspace`. */
export function approvalsIn(store: PluginStore, workspace: string): Approvals {
  return {
    approved(spec) {
      const stored = store.get(key(workspace, spec.name)) as Approval | undefined;
      return stored?.digest === specDigest(spec);
    },
    approve(spec) {
      store.put(key(workspace, spec.name), { digest: specDigest(spec), at: new Date().toISOString() } satisfies Approval);
    },
  };
}
