import type { McpToolHost } from '@nodwyn/plugin-mcp/server';
import { TaintToken, type LogDraft, type ToolProgress } from '@nodwyn/plugin-api';
import type { WorkspaceScope } from '@nodwyn/runtime';
import { randomUUID } from 'node:crypto';

/** The tools of one workspace, served; `close()` cancels the calls still running and waits until each is logged. */
export interface KernelToolHost extends McpToolHost {
  close(): Promise<void>;
}

/** What of a workspace's scope is served: its kernel, its plugins' services, and where it is. */
export type ServedScope = Pick<WorkspaceScope, 'kernel' | 'host' | 'workspace'>;

/** Longest client name kept in a session's title. */
const CLIENT_NAME_MAX = 80;

/**
 * The workspace's tools as `nodwyn mcp serve` serves them: the kernel's model-visible primitives, and per
 * connection a nodwyn session titled `mcp: <client name>`, opened by its first call. A call is the model's
 * own in every way the guard cares about (docs/architecture.md §3): a remote agent is not a person, so it
 * reaches only model-visible tools, its arguments go through preflight and policy, and its result through
 * the text layers. Its request is logged first (`mcp.call`, by the `model`, the arguments through the log
 * stages like every event), so the session shows what was asked as well as the guard's outcome.
 */
export function kernelToolHost(scope: ServedScope): KernelToolHost {
  const { kernel } = scope;
  const stopping = new AbortController();
  const running = new Set<Promise<unknown>>();
  return {
    async close() {
      stopping.abort();
      await Promise.allSettled([...running]);
    },
    tools: () => kernel.primitives.list().filter((p) => p.visibility === 'model'),
    session(client) {
      const name = client.name.slice(0, CLIENT_NAME_MAX);
      const session = kernel.sessions.create({ workspace: scope.workspace, title: `mcp: ${name}` });
      return {
        async call(call) {
          const callId = `mcp_${randomUUID()}`;
          kernel.append(session, { type: 'mcp.call', actor: 'model', payload: { call_id: callId, name: call.name, args: call.args, client: name } });
          const signal = AbortSignal.any([call.signal, stopping.signal]);
          const onProgress = call.progress && progressShown(scope, session, call.progress);
          const applying = kernel.apply({ session, name: call.name, args: call.args, origin: 'model', callId, signal, confirmer: call.confirmer, ...(onProgress ? { onProgress } : {}) });
          running.add(applying);
          const result = await applying.finally(() => running.delete(applying));
          if (!result.ok || result.data === undefined) return result;
          return { ...result, data: shownData(scope, session, result.data) };
        },
      };
    },
  };
}

/** A tool's progress reports as a client may see them: each message as `shownData` shows data, or none. */
function progressShown(scope: ServedScope, session: string, listener: (update: ToolProgress) => void): (update: ToolProgress) => void {
  return ({ message, ...rest }) => {
    const shown = message === undefined ? undefined : shownData(scope, session, message);
    listener({ ...rest, ...(typeof shown === 'string' ? { message: shown } : {}) });
  };
}

/**
 * A result's structured data as a client may see it. The guard's ingress layers filter the text only
 * (`data` was for host callers), so the data goes through the log stages, which redact every string as
 * they do for any event; when a stage fails, or the L2 tracker still finds a remembered secret in it,
 * the data is left out and the client gets the text alone.
 */
function shownData(scope: ServedScope, session: string, data: unknown): unknown {
  let draft: LogDraft = { session, type: 'mcp.result', actor: 'kernel', payload: { data } };
  try {
    for (const { stage } of scope.kernel.stages.of('log')) draft = stage.filter(draft);
  } catch {
    return undefined;
  }
  const shown = draft.payload.data;
  const taint = scope.host.service(TaintToken);
  if (taint && taint.matches(session, JSON.stringify(shown) ?? '').length > 0) return undefined;
  return shown;
}
