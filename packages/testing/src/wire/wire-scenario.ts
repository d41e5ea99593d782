import type { ModelProvider } from '@nodwyn/plugin-api';
import type { WireDialect, WireReply } from './wire-reply.js';
import type { WireServer } from './wire-server.js';

/** What a scenario gets: its dialect, and a way to start a server and the provider under test against it. */
export interface WireScenarioContext {
  readonly dialect: WireDialect;
  /** Starts a server scripted with `replies` (closed when the scenario ends) and creates the provider pointed at it, with `options` on top of the suite's. */
  serve(replies: readonly WireReply[], options?: Readonly<Record<string, string>>): Promise<{ server: WireServer; provider: ModelProvider }>;
}

/** One behaviour every provider must show on the wire. */
export interface WireScenario {
  /** States what the scenario proves. */
  readonly name: string;
  run(t: WireScenarioContext): Promise<void>;
}
