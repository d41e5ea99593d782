import { definePrimitive, z } from '@nodwyn/plugin-api';
import { posix } from 'node:path';
import { memoryFail } from './errors.js';
import { toFtsQuery } from './fts-query.js';
import type { MemoryState } from './memory-state.js';
import type { RepoSearch } from './repo-index.js';
import type { Readiness } from './repo-indexer.js';
import type { SessionHit } from './session-index.js';

const DEFAULT_MAX_RESULTS = 50;
const MAX_RESULTS = 1000;
const MAX_LINE_CHARS = 300;
const query = z.string().min(1).max(1000);
const maxResults = z.number().int().min(1).max(MAX_RESULTS).optional().describe(`Most results to print. Default ${DEFAULT_MAX_RESULTS}, at most ${MAX_RESULTS}.`);
const QUERY_HELP =
  'Words to find (all of them must occur; case does not matter; words match whole, so "load" does not find "loader" — write "load*" for that). ' +
  'FTS5 syntax works too: "exact phrase", a OR b, a NOT b, NEAR(a b).';

/** search_repo: the repository index's words and lines. */
export function searchRepoTool(state: MemoryState) {
  return definePrimitive({
    name: 'search_repo',
    description:
      'Find lines of the workspace\'s text files by words, from an index: much faster than grep on a large repository. Prints `path:line:text` ' +
      '(path relative to the workspace root, line 1-based), best files first (rarer words, shorter files), lines in file order. Skips gitignored, ' +
      'binary and very large files. Use grep for regular expressions or parts of words; use this to find where a name or phrase occurs.',
    input: z
      .object({
        query: query.describe(QUERY_HELP),
        path: z.string().min(1).optional().describe('Only search this file or directory, relative to the workspace root. Default: the whole workspace.'),
        max_results: maxResults,
      })
      .strict(),
    tier: 'read',
    visibility: 'model',
    kind: 'search',
    async handler(args, context) {
      const fts = toFtsQuery(args.query);
      const prefix = args.path === undefined ? undefined : folderOf(args.path);
      state.noteWrites(context.session);
      const readiness = await state.repo.ready(state.config.indexBudgetMs, context.signal);
      if (context.signal.aborted) memoryFail('MEMORY_CANCELLED', { operation: 'search_repo', remediation: 'search_repo was cancelled; nothing else needs doing.' });
      const found = state.repo.search(fts, { prefix, max: args.max_results ?? DEFAULT_MAX_RESULTS, maxLineChars: MAX_LINE_CHARS });
      const now = found.readiness ?? readiness;
      return { content: renderRepo(found, now, args.query), data: { hits: found.hits, truncated: found.truncated, partial: !now.complete } };
    },
  });
}

/** search_session: this session's logged events by words. */
export function searchSessionTool(state: MemoryState) {
  return definePrimitive({
    name: 'search_session',
    description:
      'Find events of this session by words: what the person asked, what you said, tool calls and their results, including the parts a summary ' +
      'replaced in your context. Prints one line per event, `seq N · type · snippet` (matches in «»), best first; then `recall` a seq to see the whole event.',
    input: z.object({ query: query.describe(QUERY_HELP), max_results: maxResults }).strict(),
    tier: 'read',
    visibility: 'model',
    kind: 'search',
    handler(args, context) {
      const fts = toFtsQuery(args.query);
      state.follow(context.session);
      const hits = state.sessions.search(fts, [context.session], args.max_results ?? DEFAULT_MAX_RESULTS);
      return { content: renderEvents(hits, args.query, false), data: { hits } };
    },
  });
}

/** recall: one logged event of this session, as it was logged. */
export function recallTool(state: MemoryState) {
  return definePrimitive({
    name: 'recall',
    description:
      'Show one event of this session exactly as it was logged (secrets were already redacted then): a message, a tool call, a tool result. ' +
      'Use it to get back what a summary replaced in your context; the summary names the seqs it covers, and search_session finds seqs by words.',
    input: z.object({ seq: z.number().int().min(1).describe('The event\'s sequence number in this session.') }).strict(),
    tier: 'read',
    visibility: 'model',
    kind: 'read',
    handler(args, context) {
      const event = state.event(context.session, args.seq);
      if (event === undefined) {
        memoryFail('MEMORY_EVENT_NOT_FOUND', {
          operation: 'recall',
          failed_parameter: '$.seq',
          received_value: args.seq,
          expected: 'the seq of an event of this session',
          remediation: `This session has no event ${args.seq}; search_session finds events by words and prints their seqs.`,
        });
      }
      return { content: JSON.stringify(event, undefined, 2), data: event };
    },
  });
}

/** search_history: the project's earlier sessions, with the person's leave. */
export function searchHistoryTool(state: MemoryState) {
  return definePrimitive({
    name: 'search_history',
    description:
      'Find events of this project\'s earlier sessions by words (what was asked, decided and done before). Prints `session ID seq N · type · snippet`, ' +
      'best first. Works only when the person allowed it in their own config ([memory] cross_session = true).',
    input: z.object({ query: query.describe(QUERY_HELP), max_results: maxResults }).strict(),
    tier: 'read',
    visibility: 'model',
    kind: 'search',
    handler(args, context) {
      if (!state.config.crossSession) {
        memoryFail('MEMORY_CROSS_SESSION_DISABLED', {
          operation: 'search_history',
          expected: '[memory] cross_session = true in the person\'s own config.toml',
          remediation:
            'Searching earlier sessions needs the person\'s leave: they can set `cross_session = true` under [memory] in their own config.toml ($NODWYN_HOME/config.toml; a repository\'s config cannot). Do not retry; use search_session for this session.',
        });
      }
      const fts = toFtsQuery(args.query);
      const sessions = state.projectSessions(context.session);
      for (const session of sessions) state.sessions.catchUp(session);
      const hits = state.sessions.search(fts, sessions, args.max_results ?? DEFAULT_MAX_RESULTS);
      return { content: renderEvents(hits, args.query, true), data: { hits } };
    },
  });
}

// A file or folder of the workspace, as the index names paths: relative, `/`, no `./` or trailing slash.
function folderOf(path: string): string | undefined {
  const normal = posix.normalize(path.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normal === '.' || normal === '') return undefined;
  if (posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../')) {
    memoryFail('MEMORY_PATH_OUTSIDE_WORKSPACE', {
      operation: 'search_repo',
      failed_parameter: '$.path',
      received_value: path,
      expected: 'a path relative to the workspace root, inside it',
      remediation: 'search_repo searches the workspace only; give a path relative to its root, like "src" or "src/index.ts".',
    });
  }
  return normal.replace(/^\.\//, '');
}

function renderRepo(found: RepoSearch, readiness: Readiness, text: string): string {
  const lines = found.hits.map((hit) => `${hit.path}:${hit.line}:${hit.text}`);
  if (found.hits.length === 0) lines.push(`[no lines hold ${JSON.stringify(text)}; words match whole (try a prefix like "pars*"), and gitignored, binary and large files are not indexed]`);
  if (found.truncated) lines.push(`[stopped at ${found.hits.length} lines; more exist: add words, narrow the path, or raise max_results]`);
  if (!readiness.complete) {
    lines.push(`[partial: the repository index is still being built (${readiness.files} files so far); files not yet indexed were not searched. Search again shortly, or use grep now.]`);
  }
  return lines.join('\n');
}

function renderEvents(hits: readonly SessionHit[], text: string, withSession: boolean): string {
  if (hits.length === 0) return `[no events hold ${JSON.stringify(text)}]`;
  return hits.map((hit) => `${withSession ? `session ${hit.session} ` : ''}seq ${hit.seq} · ${hit.type} · ${hit.snippet.replaceAll('\n', ' ⏎ ')}`).join('\n');
}
