import { toEnvelope, type ContextContributor, type ContextPart, type LoggedContextPart, type ToolSpec, type TurnContext } from '@nodwyn/plugin-api';
import type { LogEvent } from '@nodwyn/protocol';
import { KernelCodes } from '../errors.js';
import type { AppendDraft } from '../log/index.js';
import type { Owned } from '../registry.js';
import type { SessionStore } from '../sessions/session-store.js';
import { estimateTokens } from '../sessions/window.js';

/** The event a part of the agent's brief is logged as, once per session. */
export const CONTEXT_ADDED = 'context.added';
/** The event a contributor that threw is logged as, for the turn it failed in. */
export const CONTEXT_FAILED = 'context.failed';

/** What the brief needs from the floor. */
export interface FloorContextDeps {
  readonly session: string;
  readonly workspace: string;
  readonly sessions: SessionStore;
  readonly append: (session: string, draft: AppendDraft) => unknown;
  readonly shown?: (session: string, text: string) => string;
  readonly contributors: () => readonly Owned<ContextContributor>[];
  readonly tools: () => readonly ToolSpec[];
  readonly signal: () => AbortSignal;
}

/** A logged `context.added` event as a part; `undefined` for a payload not in that shape. */
function loggedPart(event: LogEvent): LoggedContextPart | undefined {
  const p = event.payload as Record<string, unknown>;
  if (typeof p.id !== 'string' || typeof p.text !== 'string') return undefined;
  const tokens = typeof p.tokens === 'number' ? p.tokens : estimateTokens(p.text);
  return { id: p.id, source: String(p.source ?? ''), text: p.text, tokens, seq: event.seq };
}

/**
 * The agent's brief on the turn floor (docs/architecture.md §10). The log is its truth: `logged()` reads
 * the session's `context.added` events (a fork's parent's included), and `system()` is what every model
 * call of the session is sent, so a new process resuming the session sends the same brief.
 */
export class FloorContext implements TurnContext {
  constructor(private readonly deps: FloorContextDeps) {}

  async contributed(): Promise<readonly ContextPart[]> {
    const { session, workspace } = this.deps;
    const logged = new Set(this.logged().map((p) => p.id));
    const request = { session, workspace, tools: this.deps.tools(), signal: this.deps.signal(), logged };
    const parts: ContextPart[] = [];
    for (const { item, owner } of this.deps.contributors()) {
      try {
        parts.push(...(await item.parts(request)));
      } catch (error) {
        // A broken contributor costs its parts for this turn, not the turn; the log says why.
        const envelope = toEnvelope(error, { plugin: owner, operation: `context.${item.id}`, code: KernelCodes.CONTEXT_CONTRIBUTOR_FAILED });
        this.deps.append(session, { type: CONTEXT_FAILED, actor: 'kernel', payload: { contributor: item.id, envelope } });
      }
    }
    return parts;
  }

  add(parts: readonly ContextPart[]): readonly LoggedContextPart[] {
    const { session, shown } = this.deps;
    const seen = new Set(this.logged().map((p) => p.id));
    for (const part of parts) {
      if (seen.has(part.id)) continue;
      seen.add(part.id);
      // Through the text layers before its tokens are counted, so the count is the logged text's.
      const text = shown ? shown(session, String(part.text)) : String(part.text);
      this.deps.append(session, { type: CONTEXT_ADDED, actor: 'kernel', payload: { id: String(part.id), source: String(part.source), text, tokens: estimateTokens(text) } });
    }
    return this.logged();
  }

  logged(): readonly LoggedContextPart[] {
    return this.deps.sessions.lineageOf(this.deps.session, [CONTEXT_ADDED]).flatMap((event) => loggedPart(event) ?? []);
  }

  /** The system prompt and its tokens, from the log; no text when nothing is logged. */
  system(): { readonly text?: string; readonly tokens: number } {
    const parts = this.logged();
    if (parts.length === 0) return { tokens: 0 };
    return { text: parts.map((p) => p.text).join('\n\n'), tokens: parts.reduce((sum, p) => sum + p.tokens, 0) };
  }
}
