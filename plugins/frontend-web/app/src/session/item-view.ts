import type { ConfirmationRequested } from '@nodwyn/protocol';
import { h, type Child } from '../dom.js';
import { errorView } from '../error-view.js';
import { renderMarkdown } from './markdown.js';
import type { Item, LiveTool, ToolOutcome } from './session-items.js';

const TEXT_SHOWN = 4000;

/** Long tool output: the start shown, the whole behind a disclosure (all as text). */
function outputText(text: string): HTMLElement {
  if (text.length <= TEXT_SHOWN) return h('pre', { class: 'output' }, text);
  return h('div', {}, h('pre', { class: 'output' }, `${text.slice(0, TEXT_SHOWN)}…`), h('details', {}, h('summary', {}, `Show all ${text.length} characters`), h('pre', { class: 'output' }, text)));
}

/** An edit as removed and added lines. */
function diffView(diff: NonNullable<ToolOutcome['diff']>): HTMLElement {
  const lines: Child[] = [];
  for (const line of (diff.oldText ?? '').split('\n')) if (diff.oldText !== undefined) lines.push(h('span', { class: 'del' }, `- ${line}\n`));
  for (const line of diff.newText.split('\n')) lines.push(h('span', { class: 'add' }, `+ ${line}\n`));
  return h('div', { class: 'diff' }, h('div', { class: 'diff-path' }, diff.path), h('pre', {}, ...lines));
}

/** What a tool produced: its envelope, its diff, its text. */
export function outcomeView(outcome: ToolOutcome | undefined): Child[] {
  if (!outcome) return [];
  if (outcome.envelope) return [errorView({ envelope: { status: 'error', ...outcome.envelope } })];
  return [outcome.diff ? diffView(outcome.diff) : undefined, outcome.text !== undefined && outcome.text.length > 0 ? outputText(outcome.text) : undefined];
}

function toolView(title: string, status: string, outcome: ToolOutcome | undefined, progress?: string): HTMLElement {
  const head = h('div', { class: 'tool-head' }, h('span', { class: `badge tool-${status}` }, status.replace('_', ' ')), h('code', { class: 'tool-title' }, title), progress ? h('span', { class: 'tool-progress', role: 'status' }, progress) : undefined);
  return h('div', { class: 'tool' }, head, ...outcomeView(outcome));
}

/** A streamed or logged answer as sanitised Markdown, with its thinking behind a disclosure. */
export function answerView(text: string, thinking: readonly string[]): HTMLElement {
  const body = h('div', { class: 'markdown' });
  body.appendChild(renderMarkdown(text));
  const thought = thinking.length > 0 ? h('details', { class: 'thinking' }, h('summary', {}, 'Thinking'), h('pre', {}, thinking.join('\n\n'))) : undefined;
  return h('div', {}, thought, body);
}

/** One finished row of the session; `onFork` makes its "fork here" button. */
export function itemView(item: Item, onFork: (seq: number) => void): HTMLElement {
  const fork = () => h('button', { type: 'button', class: 'fork link', title: `Fork a new session at event ${item.seq}`, onClick: () => onFork(item.seq) }, 'fork here');
  switch (item.kind) {
    case 'user':
      return h('article', { class: 'item user', 'data-seq': item.seq }, h('div', { class: 'who' }, 'You', fork()), h('div', { class: 'text' }, item.text));
    case 'assistant':
      return h('article', { class: 'item assistant', 'data-seq': item.seq }, h('div', { class: 'who' }, item.partial ? 'nodwyn (interrupted)' : 'nodwyn', fork()), answerView(item.text, item.thinking));
    case 'tool':
      return h('article', { class: 'item', 'data-seq': item.seq }, toolView(item.title, item.status, item.outcome));
    case 'plan':
      return h(
        'article',
        { class: 'item plan', 'data-seq': item.seq },
        h('div', { class: 'who' }, item.approved ? 'Plan (approved)' : 'Plan (to revise)'),
        h('ol', {}, ...item.entries.map((entry) => h('li', {}, entry))),
        item.feedback ? h('p', { class: 'dim' }, item.feedback) : undefined,
      );
    case 'notice':
      return h('article', { class: `item notice tone-${item.tone}`, 'data-seq': item.seq }, item.text);
    case 'turn':
      return h('article', { class: 'item turn', 'data-seq': item.seq }, h('div', { class: 'who' }, `Turn ended: ${item.reason}`), item.envelope ? errorView({ envelope: { status: 'error', ...item.envelope } }) : undefined);
  }
}

/** A tool running now. */
export function liveToolView(tool: LiveTool): HTMLElement {
  return h('div', { class: 'item live' }, toolView(tool.title, tool.status, tool.outcome, tool.status === 'in_progress' ? tool.progress : undefined));
}

/** A pending confirmation with its choices; `onAnswer` sends the chosen option. */
export function questionView(question: ConfirmationRequested, onAnswer: (optionId: string) => void): HTMLElement {
  return h(
    'section',
    { class: 'question', role: 'group', 'aria-label': `Confirmation for ${question.tool}` },
    h('div', { class: 'who' }, question.security ? 'Security question' : 'Confirmation', ` · ${question.tier}`),
    h('p', {}, h('code', {}, question.tool), ': ', question.reason),
    question.effects && question.effects.length > 0 ? h('ul', { class: 'effects' }, ...question.effects.map((effect) => h('li', {}, effect))) : undefined,
    h('div', { class: 'actions' }, ...question.options.map((option) => h('button', { type: 'button', class: option.kind.startsWith('allow') ? '' : 'secondary', 'data-option': option.optionId, onClick: () => onAnswer(option.optionId) }, option.name))),
  );
}
