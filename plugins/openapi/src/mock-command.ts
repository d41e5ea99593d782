import { withJsonFailures, type CliCommand } from '@nodwyn/plugin-api';
import { resolve } from 'node:path';
import { loadDocument } from './document-load.js';
import { openApiError } from './errors.js';
import { startMock } from './mock/mock-server.js';

function whole(value: unknown, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && /^\d{1,10}$/.test(value) && Number(value) <= max) return Number(value);
  throw openApiError('OPENAPI_USAGE', { operation: 'mock', failed_parameter: flag, received_value: value, expected: `a whole number up to ${max}`, remediation: `Give ${flag} a whole number.` });
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * `nodwyn mock FILE [--port N] [--seed N] [--inject SPEC]...`: serves the document on 127.0.0.1 with
 * generated answers and fault injections, prints its base URL as stdout's first line, and stops on
 * SIGINT or SIGTERM.
 */
export function mockCommand(): CliCommand {
  return {
    name: 'mock',
    description: 'Serve an OpenAPI document on 127.0.0.1 with generated answers and injected faults: mock FILE [--port N] [--inject SPEC]...',
    arguments: ['file'],
    options: [
      { flags: '--port <port>', description: 'the port (default: a free one)' },
      { flags: '--seed <seed>', description: 'seed of generated values (default 1)' },
      { flags: '--inject <spec...>', description: 'a fault: [operationId:]status=503[;retry-after=S] | delay=MS | drop-after=N[;retry=MS] | stall-after=N[;ms=MS] | reset, with ;times=K' },
      { flags: '--json', description: 'print failures as JSON' },
    ],
    run({ args, options, io }) {
      return withJsonFailures(options, io, async () => {
        const file = args[0];
        if (!file) throw openApiError('OPENAPI_USAGE', { operation: 'mock', remediation: 'usage: nodwyn mock FILE [--port N] [--seed N] [--inject SPEC]...' });
        const { document } = await loadDocument(resolve(file));
        const inject = Array.isArray(options.inject) ? options.inject.map(String) : typeof options.inject === 'string' ? [options.inject] : [];
        const port = whole(options.port, '--port', 65535);
        const seed = whole(options.seed, '--seed', 2 ** 31);
        const mock = await startMock({ document, inject, ...(port === undefined ? {} : { port }), ...(seed === undefined ? {} : { seed }) });
        io.write(`${mock.url}\n`);
        await untilSignal();
        await mock.close();
        return 0;
      });
    },
  };
}
