import type { ModelProvider } from '@nodwyn/plugin-api';
import { describe, it } from 'vitest';
import { FAILURE_SCENARIOS } from './wire-failure-scenarios.js';
import type { WireDialect } from './wire-reply.js';
import type { WireScenarioContext } from './wire-scenario.js';
import { startWireServer, type WireServer } from './wire-server.js';
import { STREAM_SCENARIOS } from './wire-stream-scenarios.js';

/** What the suite needs to test a provider. */
export interface ProviderWireSuiteOptions {
  readonly dialect: WireDialect;
  /**
   * Creates the provider under test pointed at the loopback server: `baseUrl` is `http://127.0.0.1:PORT` for
   * anthropic and `http://127.0.0.1:PORT/v1` for the OpenAI dialects. `options` carries the suite's own
   * (`retry_base_ms` '1', `retry_max_ms` '200', and per scenario e.g. `max_attempts`); pass them through.
   */
  create(baseUrl: string, options: Readonly<Record<string, string>>): ModelProvider | Promise<ModelProvider>;
}

/** Short waits, so retries cost milliseconds. */
const SUITE_OPTIONS = { retry_base_ms: '1', retry_max_ms: '200' };
/** Per-scenario ceiling: the slowest scenario takes well under a second. */
const SCENARIO_TIMEOUT_MS = 10_000;

/**
 * Declares a vitest `describe` block of the scenarios every provider must pass against a loopback server
 * speaking its wire format: plain text, parallel tool calls with fragmented arguments, usage with cache,
 * 429 with retry-after, overloaded, 500 until max attempts, resets before and after content, a stream cut
 * mid-event, a malformed event, a slow stream, cancel, 401, context too long, and a spent retry budget.
 * Each asserts the events or the envelope and how many requests the server saw; each has its own server.
 */
export function describeProviderWireConformance(options: ProviderWireSuiteOptions): void {
  describe(`provider wire conformance (${options.dialect})`, () => {
    for (const scenario of [...STREAM_SCENARIOS, ...FAILURE_SCENARIOS]) {
      it(
        scenario.name,
        async () => {
          const servers: WireServer[] = [];
          const context: WireScenarioContext = {
            dialect: options.dialect,
            async serve(replies, extra = {}) {
              const server = await startWireServer(options.dialect, replies);
              servers.push(server);
              return { server, provider: await options.create(server.url, { ...SUITE_OPTIONS, ...extra }) };
            },
          };
          try {
            await scenario.run(context);
          } finally {
            await Promise.all(servers.map((server) => server.close()));
          }
        },
        SCENARIO_TIMEOUT_MS,
      );
    }
  });
}
