import { definePlugin, optional, RedactorToken, TaintToken, type PluginContext } from '@nodwyn/plugin-api';
import { parseMemoryConfig } from './config.js';
import { PLUGIN_NAME } from './errors.js';
import { memoryCommand } from './memory-command.js';
import { MemoryState } from './memory-state.js';
import { recallTool, searchHistoryTool, searchRepoTool, searchSessionTool } from './tools.js';

/** The tools this plugin provides, by their model-visible names. */
export const MEMORY_TOOLS = ['search_repo', 'search_session', 'recall', 'search_history'] as const;

// One state per plugin context: a daemon loads the plugin once per workspace, each with its own indexes.
const states = new WeakMap<PluginContext, MemoryState>();

/**
 * Memory indexes, derived from the log and the workspace and rebuildable (docs/architecture.md §10): the
 * session's events (`search_session`, `recall`), the repository's words and lines (`search_repo`), and,
 * with the person's leave (`[memory] cross_session = true`), the project's earlier sessions
 * (`search_history`). Indexes live in `<data folder>/memory/`; `nodwyn memory rebuild` makes them anew.
 */
export const memoryPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'Memory indexes: search_repo over the workspace\'s words and lines, search_session and recall over the log, search_history with leave.',
    provides: [...MEMORY_TOOLS.map((name) => `primitive:${name}`), 'command:memory'],
    permissions: ['log.read', 'fs.read', 'fs.write'],
  },
  // The text layers repository text passes before it is indexed; without L1 the repository index refuses.
  deps: { redactor: optional(RedactorToken), taint: optional(TaintToken) },
  register(ctx, layers) {
    const state = new MemoryState(ctx, parseMemoryConfig(ctx.settings), layers);
    states.set(ctx, state);
    ctx.primitives.register(searchRepoTool(state));
    ctx.primitives.register(searchSessionTool(state));
    ctx.primitives.register(recallTool(state));
    ctx.primitives.register(searchHistoryTool(state));
    ctx.commands.register(memoryCommand(() => state, ctx.workspace));
  },
  async stop(ctx) {
    await states.get(ctx)?.close();
    states.delete(ctx);
  },
});

export { MemoryErrorCode } from './errors.js';
