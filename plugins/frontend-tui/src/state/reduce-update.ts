import type { Usage } from '@nodwyn/protocol';
import { progressText, toolProgressOf } from '@nodwyn/protocol/tool-progress';
import { sanitize } from '../terminal/sanitize.js';
import type { SessionUpdate, UpdateOf } from './protocol-types.js';
import { outcomeFromUpdate } from './tool-outcome.js';
import type { TuiState } from './tui-state.js';

interface UsageMeta {
  readonly lastCall?: Usage;
  readonly session?: { readonly input: number; readonly output: number };
  readonly lastCallCostUsd?: number;
}

function usage(state: TuiState, update: UpdateOf<'usage_update'>): TuiState {
  const meta = ((update._meta as { nodwyn?: UsageMeta } | null | undefined)?.nodwyn ?? {}) as UsageMeta;
  const last = meta.lastCall ? meta.lastCall.input + meta.lastCall.output : update.used;
  const prev = state.usage;
  return {
    ...state,
    usage: {
      used: update.used,
      size: update.size,
      costUsd: update.cost?.amount ?? prev.costUsd,
      sessionTokens: meta.session ? meta.session.input + meta.session.output : prev.sessionTokens,
      partial: meta.session === undefined && prev.partial,
      turnTokens: prev.turnTokens + last,
      turnCostUsd: prev.turnCostUsd + (meta.lastCallCostUsd ?? 0),
    },
  };
}

function toolCallUpdate(state: TuiState, update: UpdateOf<'tool_call_update'>): TuiState {
  const live = state.tools.find((t) => t.toolCallId === update.toolCallId);
  if (!live) return state;
  const status = update.status ?? live.status;
  const finished = status === 'completed' || status === 'failed';
  const progress = toolProgressOf(update._meta);
  const changed = {
    ...live,
    status,
    ...(update.title ? { title: sanitize(update.title) } : {}),
    ...(progress ? { progress: sanitize(progressText(progress)) } : {}),
    ...(finished ? { outcome: outcomeFromUpdate(update) } : {}),
  };
  return { ...state, tools: state.tools.map((t) => (t === live ? changed : t)) };
}

/**
 * What one ACP `session/update` changes. Updates drive only what is live (streamed text, running
 * tools, totals, commands, the title); everything finished is drawn from the log (`reduceLog`).
 */
export function reduceUpdate(state: TuiState, update: SessionUpdate, at: number): TuiState {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return update.content.type === 'text' ? { ...state, stream: { ...state.stream, text: state.stream.text + update.content.text } } : state;
    case 'agent_thought_chunk':
      return update.content.type === 'text' ? { ...state, stream: { ...state.stream, thought: state.stream.thought + update.content.text } } : state;
    case 'tool_call': {
      const title = sanitize(update.title);
      const existing = state.tools.find((t) => t.toolCallId === update.toolCallId);
      if (existing) return { ...state, tools: state.tools.map((t) => (t === existing ? { ...t, title } : t)) };
      const status = update.status === 'in_progress' ? 'in_progress' : 'pending';
      return { ...state, tools: [...state.tools, { toolCallId: update.toolCallId, title, status, startedAt: at }] };
    }
    case 'tool_call_update':
      return toolCallUpdate(state, update);
    case 'usage_update':
      return usage(state, update);
    case 'available_commands_update':
      return {
        ...state,
        commands: update.availableCommands.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.input && 'hint' in c.input && typeof c.input.hint === 'string' ? { hint: c.input.hint } : {}),
        })),
      };
    case 'session_info_update':
      return typeof update.title === 'string' && state.session ? { ...state, session: { ...state.session, title: update.title } } : state;
    default:
      return state;
  }
}
