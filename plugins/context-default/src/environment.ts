import type { ContextContributor, ContextRequest, ToolSpec } from '@nodwyn/plugin-api';
import { arch, platform, release, type } from 'node:os';
import { gitSummary } from './git-summary.js';

/** The first sentence of a tool's description: what it is for, which is when to use it. */
function firstSentence(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  const end = line.search(/\.(\s|$)/);
  return end === -1 ? line : line.slice(0, end + 1);
}

function toolLines(tools: readonly ToolSpec[]): string {
  if (tools.length === 0) return '- (no tools are offered in this session)';
  return tools.map((t) => `- \`${t.name}\`: ${firstSentence(t.description)}`).join('\n');
}

/** What the environment part says, from the request and the clock. */
export async function environmentText(request: ContextRequest, now: Date = new Date()): Promise<string> {
  const git = await gitSummary(request.workspace);
  const shell = request.tools.some((t) => t.name === 'shell') ? 'bash (the `shell` tool runs commands with `bash -c` in the workspace)' : (process.env.SHELL ?? 'unknown');
  const repository = git.none ? `- Git: ${git.none}` : `- Git branch: ${git.branch}\n- Git status when the session started: ${git.status}`;
  return [
    '# Environment',
    '',
    `- Workspace (every path is relative to it, and the tools cannot leave it): ${request.workspace}`,
    `- OS: ${type()} ${release()} (${platform()}/${arch()})`,
    `- Shell: ${shell}`,
    `- Date when the session started: ${now.toISOString().slice(0, 10)}`,
    repository,
    '',
    'Tools, and what each is for:',
    toolLines(request.tools),
  ].join('\n');
}

/** The id of the environment's one part. */
const ENVIRONMENT_PART = 'environment.workspace';

/** Contributes `environment.workspace`: where the model works, and with which tools. */
export function environmentContributor(now: () => Date = () => new Date()): ContextContributor {
  return {
    id: 'environment',
    description: 'Where the model works: the workspace path, OS, shell, date, git branch and status, and the tools.',
    // Logged once per session: later turns skip git and the rest (a warm daemon answers in milliseconds).
    parts: async (request) =>
      request.logged.has(ENVIRONMENT_PART) ? [] : [{ id: ENVIRONMENT_PART, source: 'environment', text: await environmentText(request, now()) }],
  };
}
