import { EnvelopeError, type ClientEvent, type FrontendClient } from '@nodwyn/plugin-api';
import { TestingCodes } from '../errors.js';

/** One method call a front end made on its client. */
export interface FrontendClientCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

/** A `FrontendClient` test double: it answers like an agent with nothing to say, and records every call. */
export interface RecordingFrontendClient extends FrontendClient {
  /** Every method called, in order (`onEvent` and `lastSeq` included). */
  readonly calls: readonly FrontendClientCall[];
  /** True once `close()` was called; later calls reject with `CLIENT_CLOSED`. */
  readonly closed: boolean;
  /** Delivers `event` to every `onEvent` listener, as the agent would. */
  emit(event: ClientEvent): void;
}

const AGENT: FrontendClient['agent'] = {
  protocolVersion: 1,
  agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
  agentInfo: { name: 'nodwyn-test', version: '0.0.0' },
};

/**
 * A client for front-end tests with no agent behind it: `newSession` answers `session-1`, `session-2`, …;
 * `prompt` ends every turn with `end_turn`; `attach` answers `lastSeq` 0; `listSessions`, the prompt
 * history, file completions and providers are empty; an answered confirmation is accepted; `fork` answers
 * a new session and `configureProvider` what it was given. What the front end shows comes only from events the test `emit`s.
 */
export function recordingFrontendClient(): RecordingFrontendClient {
  const calls: FrontendClientCall[] = [];
  const listeners = new Set<(event: ClientEvent) => void>();
  const seqs = new Map<string, number>();
  let sessions = 0;
  let closed = false;
  const call = <T>(method: string, args: readonly unknown[], answer: () => T): Promise<T> => {
    calls.push({ method, args });
    if (closed) return Promise.reject(closedError(method));
    return Promise.resolve(answer());
  };
  return {
    agent: AGENT,
    calls,
    get closed() {
      return closed;
    },
    emit(event) {
      if (event.type === 'log') seqs.set(event.sessionId, Math.max(seqs.get(event.sessionId) ?? 0, event.event.seq));
      for (const listener of [...listeners]) listener(event);
    },
    newSession: (cwd) => call('newSession', [cwd], () => ({ sessionId: `session-${++sessions}` })),
    loadSession: (sessionId, cwd) => call('loadSession', [sessionId, cwd], () => undefined),
    prompt: (sessionId, prompt) => call('prompt', [sessionId, prompt], () => ({ stopReason: 'end_turn' as const })),
    cancel: (sessionId) => call('cancel', [sessionId], () => undefined),
    attach: (sessionId, fromSeq) => call('attach', [sessionId, fromSeq], () => ({ lastSeq: seqs.get(sessionId) ?? 0 })),
    detach: (sessionId) => call('detach', [sessionId], () => undefined),
    listSessions: (options) => call('listSessions', [options], () => []),
    answerConfirmation: (sessionId, callId, optionId) => call('answerConfirmation', [sessionId, callId, optionId], () => ({ accepted: true })),
    fork: (sessionId, atSeq) => call('fork', [sessionId, atSeq], () => ({ sessionId: `session-${++sessions}` })),
    promptHistory: (workspace, limit) => call('promptHistory', [workspace, limit], () => []),
    completeFiles: (workspace, prefix, limit) => call('completeFiles', [workspace, prefix, limit], () => []),
    listProviders: () => call('listProviders', [], () => ({ providers: [] })),
    configureProvider: (choice) => call('configureProvider', [choice], () => ({ provider: choice.provider, model: choice.model, config: 'config.toml' })),
    loginLink: () => call('loginLink', [], () => ({ url: 'http://127.0.0.1:7420/login?t=recorded', expiresInMs: 60_000 })),
    onPermission(handler) {
      calls.push({ method: 'onPermission', args: [handler] });
    },
    onEvent(listener) {
      calls.push({ method: 'onEvent', args: [listener] });
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    lastSeq(sessionId) {
      calls.push({ method: 'lastSeq', args: [sessionId] });
      return seqs.get(sessionId) ?? 0;
    },
    async close() {
      calls.push({ method: 'close', args: [] });
      closed = true;
      listeners.clear();
    },
  };
}

function closedError(method: string): EnvelopeError {
  return new EnvelopeError({
    category: 'TRANSPORT_FAILED',
    code: TestingCodes.CLIENT_CLOSED,
    operation: `client.${method}`,
    remediation: 'The front end called its client after the client was closed; the app owns the connection, so a front end must not close it.',
  });
}
