import { isPlaceholder } from '../allow-list.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { endsToken, startsToken, stickyAt } from '../chars.js';
import { secretLike } from '../value-checks.js';
import { tokenRules } from './token-rule.js';

const ANTHROPIC = /sk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{32,200}/y;
const OPENAI = /sk-(?:(proj|svcacct|admin|None)-)?[A-Za-z0-9_-]{20,250}/y;
/** "OpenAI" in base64; every OpenAI key carries it in the middle. */
const OPENAI_MARKER = 'T3BlbkFJ';
/** Many other services (DeepSeek, Moonshot, LiteLLM, …) copied the `sk-` prefix. */
const OTHER_SK = /sk-[A-Za-z0-9]{32,128}/y;

function classOfSk(scan: Scan, start: number): { class: string; end: number; priority: number } | undefined {
  const anthropic = stickyAt(ANTHROPIC, scan.text, start);
  if (anthropic) return { class: 'anthropic-key', end: start + anthropic[0].length, priority: Priority.vendor };
  const openai = stickyAt(OPENAI, scan.text, start);
  if (openai && (openai[0].includes(OPENAI_MARKER) || (openai[1] !== undefined && openai[0].length >= 48))) {
    return { class: 'openai-key', end: start + openai[0].length, priority: Priority.vendor };
  }
  const other = stickyAt(OTHER_SK, scan.text, start);
  if (other && secretLike(other[0].slice(3))) return { class: 'generic-secret', end: start + other[0].length, priority: Priority.generic };
  return undefined;
}

/** Every key that starts with `sk-`: Anthropic, OpenAI, then the services that borrowed the prefix. */
function skKey(scan: Scan, start: number): void {
  if (!startsToken(scan.text, start)) return;
  const found = classOfSk(scan, start);
  if (!found || !endsToken(scan.text, found.end) || isPlaceholder(scan.text.slice(start, found.end))) return;
  scan.add({ class: found.class, start, end: found.end, priority: found.priority });
}

/** Model providers and hubs: OpenAI, Anthropic, Hugging Face. */
export const aiRules: Rule[] = [
  { anchors: ['sk-'], handle: skKey },
  ...tokenRules([
    { class: 'huggingface-token', anchors: ['hf_'], pattern: /hf_[A-Za-z0-9]{34,40}/y, check: (t) => /[A-Z]/.test(t) && /[a-z]/.test(t) },
    { class: 'huggingface-token', anchors: ['api_org_'], pattern: /api_org_[A-Za-z0-9]{34}/y },
  ]),
];
