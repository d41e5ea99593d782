import { z } from '@nodwyn/plugin-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runtimeError } from './errors.js';
import { parseJsonFile, writePrivateJson } from './private-json-file.js';
import { dataDir } from './paths.js';
import { entryHash } from './trust-hash.js';
import type { InstalledPlugin } from './plugin-files.js';

const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

const ApprovalSchema = z
  .object({
    package: z.string().min(1),
    version: z.string(),
    /** The folder it was installed in when approved; a copy elsewhere with the same files is the same plugin. */
    folder: z.string(),
    hash: Sha256,
    approved_at: z.string(),
    /** Per-file hashes, so a change can be named (added, removed, changed files). */
    files: z.array(z.object({ path: z.string(), hash: Sha256 }).strict()),
  })
  .strict();

const LedgerSchema = z.object({ version: z.literal(1), plugins: z.array(ApprovalSchema) }).strict();

/** One approval: the plugin's files as the person saw them when approving. */
export type PluginApproval = z.infer<typeof ApprovalSchema>;

/** Where an installed plugin stands against the ledger. */
export type LedgerStatus = 'approved' | 'unapproved' | 'changed';

/** What changed between an approval and the plugin as installed now. */
export interface PluginChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  /** `[approved, installed]` when the version differs. */
  readonly version?: readonly [string, string];
}

/** The ledger's file: in the data folder, which no file tool or sandbox door may touch (docs/architecture.md §6). */
export function pluginLedgerPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'plugins.lock.json');
}

/**
 * The plugin trust ledger: which third-party plugins the person approved, each pinned by the hash of
 * its installed files. A missing file approves nothing; a damaged one is an envelope (nodwyn is its only
 * writer and writes it atomically, 0600), never "approve nothing and overwrite it next time".
 */
export class PluginLedger {
  private constructor(
    readonly path: string,
    private readonly approvals: Map<string, PluginApproval>,
  ) {}

  /** Reads the ledger at `path`. */
  static open(path: string): PluginLedger {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new PluginLedger(path, new Map());
      throw ledgerError('PLUGIN_LEDGER_UNREADABLE', path, `nodwyn could not read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); make it a file you can read.`, error);
    }
    return new PluginLedger(path, new Map(parseLedger(text, path).plugins.map((a) => [a.package, a])));
  }

  get(name: string): PluginApproval | undefined {
    return this.approvals.get(name);
  }

  /** Where `plugin` stands: approved only when its files hash to exactly what was approved. */
  status(plugin: InstalledPlugin): LedgerStatus {
    const approval = this.approvals.get(plugin.package);
    if (!approval) return 'unapproved';
    return approval.hash === plugin.hash ? 'approved' : 'changed';
  }

  /** Approves `plugin` as installed now and writes the ledger. */
  approve(plugin: InstalledPlugin, now: Date = new Date()): PluginApproval {
    const approval: PluginApproval = {
      package: plugin.package,
      version: plugin.version,
      folder: plugin.folder,
      hash: plugin.hash,
      approved_at: now.toISOString(),
      files: plugin.files.map((f) => ({ path: f.path, hash: entryHash(f) })),
    };
    this.approvals.set(plugin.package, approval);
    this.#save();
    return approval;
  }

  /** Forgets `name`; true when it was approved. */
  revoke(name: string): boolean {
    const had = this.approvals.delete(name);
    if (had) this.#save();
    return had;
  }

  // Written 0600 through a temp file: a crash leaves the old ledger or the new one.
  #save(): void {
    try {
      writePrivateJson(this.path, { version: 1, plugins: [...this.approvals.values()] });
    } catch (error) {
      throw ledgerError('PLUGIN_LEDGER_UNWRITABLE', this.path, `nodwyn could not write ${this.path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); make its folder writable and try again.`, error);
    }
  }
}

/** What differs between `approval` and `plugin` as installed now, file by file. */
export function pluginChanges(approval: PluginApproval, plugin: InstalledPlugin): PluginChanges {
  const before = new Map(approval.files.map((f) => [f.path, f.hash]));
  const now = new Map(plugin.files.map((f) => [f.path, entryHash(f)]));
  const added = [...now.keys()].filter((p) => !before.has(p));
  const removed = [...before.keys()].filter((p) => !now.has(p));
  const changed = [...now.entries()].filter(([p, h]) => before.has(p) && before.get(p) !== h).map(([p]) => p);
  return { added, removed, changed, version: approval.version === plugin.version ? undefined : [approval.version, plugin.version] };
}

/** One line naming what changed, for notices and reviews. */
export function describeChanges(changes: PluginChanges): string {
  const parts: string[] = [];
  if (changes.version) parts.push(`version ${changes.version[0]} → ${changes.version[1]}`);
  const list = (label: string, paths: readonly string[]) => paths.length > 0 && parts.push(`${label} ${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}`);
  list('added', changes.added);
  list('removed', changes.removed);
  list('changed', changes.changed);
  return parts.length > 0 ? parts.join('; ') : 'its folder moved';
}

function parseLedger(text: string, path: string): z.infer<typeof LedgerSchema> {
  const read = parseJsonFile(LedgerSchema, text);
  if ('data' in read) return read.data;
  const { problem } = read;
  throw runtimeError('PLUGIN_LEDGER_CORRUPT', {
    operation: 'plugins.ledger',
    failed_parameter: problem.parameter,
    expected: problem.expected,
    received_value: path,
    remediation: `The plugin trust ledger ${path} is damaged. Restore it, or delete it and approve your plugins again (nodwyn plugins approve PKG).`,
  });
}

function ledgerError(code: 'PLUGIN_LEDGER_UNREADABLE' | 'PLUGIN_LEDGER_UNWRITABLE', path: string, remediation: string, cause: unknown) {
  return runtimeError(code, { operation: 'plugins.ledger', received_value: path, remediation }, cause);
}
