import type { PluginContext, Redactor, TaintTracker } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { MemoryConfig } from './config.js';
import { memoryFail } from './errors.js';
import type { IndexPolicy } from './repo-index.js';
import { RepoIndexer } from './repo-indexer.js';
import { SessionIndex } from './session-index.js';
import { TextGuard } from './text-guard.js';

/** Tools that write a file named by their `path` argument; a shell command may write anything. */
const FILE_WRITERS = new Set(['write_file', 'edit_file']);

/** Where the indexes of a data folder live. */
export function memoryFolder(dataDir: string): string {
  return join(dataDir, 'memory');
}

/** The repository index file of a workspace: one per project, named by a hash of its real path. */
export function repoIndexFile(dataDir: string, workspace: string): string {
  return join(memoryFolder(dataDir), 'repos', `${createHash('sha256').update(workspace).digest('hex').slice(0, 24)}.db`);
}

/** The text layers repository text passes before it is indexed; either may be missing (not loaded). */
export interface TextLayers {
  readonly redactor: Redactor | undefined;
  readonly taint: TaintTracker | undefined;
}

/**
 * The plugin's indexes for one workspace, opened on first use (a run that searches nothing opens no
 * index file) and closed when the plugin stops.
 */
export class MemoryState {
  #sessions: SessionIndex | undefined;
  #repo: RepoIndexer | undefined;
  /** The last seq of each session whose writes the repository index was told of. */
  readonly #seen = new Map<string, number>();

  constructor(
    private readonly ctx: Pick<PluginContext, 'dataDir' | 'workspace' | 'log'>,
    readonly config: MemoryConfig,
    private readonly layers: TextLayers,
  ) {}

  get sessions(): SessionIndex {
    return (this.#sessions ??= new SessionIndex(join(memoryFolder(this.ctx.dataDir), 'sessions.db'), this.ctx.log));
  }

  /** The repository index; throws `MEMORY_TEXT_LAYERS_MISSING` when no text layer could clean what it holds. */
  get repo(): RepoIndexer {
    this.policy();
    return (this.#repo ??= new RepoIndexer(repoIndexFile(this.ctx.dataDir, this.ctx.workspace), this.ctx.workspace, () => this.policy(), {
      rescanMs: this.config.rescanMs,
      skip: [realOrSame(this.ctx.dataDir)],
    }));
  }

  /** Indexes the events of `session` appended since the last search (for search_session). */
  follow(session: string): void {
    this.sessions.catchUp(session);
  }

  /**
   * Tells the repository index which files the events of `session` since the last search wrote, so a
   * search after an edit finds the edit. Reads only those events from the log; the first time a session
   * is seen in this process, none (a new process checks every file once anyway).
   */
  noteWrites(session: string): void {
    const seen = this.#seen.get(session);
    if (seen === undefined) {
      this.#seen.set(session, this.ctx.log.sessions().find((info) => info.id === session)?.events ?? 0);
      return;
    }
    const events = this.ctx.log.read(session, seen + 1);
    if (events.length > 0) this.#seen.set(session, events.at(-1)!.seq);
    noteWrites(this.repo, events);
  }

  /** The event `seq` of `session` as it was logged (its chain fields left out), or undefined. */
  event(session: string, seq: number): Omit<LogEvent, 'prev' | 'hash'> | undefined {
    const event = this.ctx.log.read(session, seq)[0];
    if (event?.seq !== seq) return undefined;
    const { prev: _prev, hash: _hash, ...logged } = event;
    return logged;
  }

  /** The sessions of this project (this workspace), but `except`: for `search_history` and rebuilds. */
  projectSessions(except?: string): string[] {
    return this.ctx.log
      .sessions()
      .filter((info) => info.workspace === this.ctx.workspace && info.id !== except)
      .map((info) => info.id);
  }

  async close(): Promise<void> {
    await this.#repo?.close();
    this.#sessions?.close();
  }

  // Repository text is indexed only through the text layers; without L1 nothing is indexed at all.
  private policy(): IndexPolicy {
    const { redactor, taint } = this.layers;
    if (!redactor) {
      return memoryFail('MEMORY_TEXT_LAYERS_MISSING', {
        operation: 'search_repo',
        remediation: 'The repository index needs the text layer (plugin @nodwyn/plugin-redact-l1) so no secret enters it; enable that plugin, or use grep.',
      });
    }
    const guard = new TextGuard(redactor, taint);
    return { maxFileBytes: this.config.maxFileBytes, guard: (text) => guard.guard(text) };
  }
}

function noteWrites(repo: RepoIndexer, events: readonly LogEvent[]): void {
  for (const event of events) {
    if (event.type !== 'tool.completed' && event.type !== 'tool.failed') continue;
    const { name, args } = event.payload as { name?: unknown; args?: unknown };
    if (name === 'shell') repo.stale();
    const path = typeof args === 'object' && args !== null ? (args as { path?: unknown }).path : undefined;
    if (typeof name === 'string' && FILE_WRITERS.has(name) && typeof path === 'string') {
      const normal = posix.normalize(path.replaceAll('\\', '/')).replace(/^\.\//, '');
      if (!normal.startsWith('../') && !posix.isAbsolute(normal)) repo.changed([normal]);
    }
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
