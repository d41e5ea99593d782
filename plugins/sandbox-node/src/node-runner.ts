import { toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, type SandboxResult, type SandboxRunner, type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { nodeEnvelope, nodeError, OPERATION, PLUGIN_NAME } from './errors.js';
import { NodeRun } from './node-run.js';

/** How a Node runner is set up. */
export interface NodeRunnerOptions {
  /**
   * The network is cut another way (the machine has no route out, a firewall or a network namespace
   * drops the runner's traffic), so runs that ask for no network may go ahead. Node itself cannot stop
   * the code from opening sockets; without this, only runs granted `net` hosts are accepted.
   */
  readonly networkCut?: boolean;
  /** Paths no door may reach besides `.nodwyn/`: the plugin passes nodwyn's data directory. */
  readonly forbidden?: readonly string[];
  /** Where each run's temp folder (harness and code) is made; default the OS temp folder. Keep it outside the workspace. */
  readonly tempDir?: string;
}

/** Shown in listings and to the model: what this runner is for and what it cannot contain. */
export const NODE_RUNNER_DESCRIPTION =
  "Node.js in a child process under Node's permission model, for code that needs Node APIs (crypto, zlib, Buffer, streams). " +
  'Files only through the nodwyn door; no child processes, workers or addons. It cannot restrict the network, so it runs only ' +
  'when the capability is granted network hosts or the network is cut another way.';

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there yet: it is judged by the path it will have.
    return resolve(path);
  }
}

function failure(envelope: Envelope): SandboxResult {
  return { ok: false, envelope, logs: '', taint: [] };
}

function limitsOf(requested: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...requested };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw nodeError('SANDBOX_LIMITS_INVALID', { failed_parameter: `$.limits.${name}`, received_value: value, expected: 'a positive number', remediation: `Set limits.${name} to a positive number, or leave it out for the default.` });
    }
  }
  return limits;
}

function checkRequest(request: SandboxRunRequest): void {
  if (typeof request.code !== 'string') {
    throw nodeError('SANDBOX_CODE_INVALID', { failed_parameter: '$.code', received_value: typeof request.code, remediation: 'Pass the code as a string holding an ES module.' });
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(request.args);
  } catch (error) {
    throw nodeError('SANDBOX_ARGS_NOT_JSON', { failed_parameter: '$.args', remediation: `The args cannot be sent as JSON (${(error as Error).message}); pass plain data.` }, error);
  }
  if (json === undefined && request.args !== undefined) {
    throw nodeError('SANDBOX_ARGS_NOT_JSON', { failed_parameter: '$.args', received_value: typeof request.args, remediation: 'Pass the args as plain JSON data.' });
  }
}

function networkRefusal(): Envelope {
  return nodeEnvelope('SANDBOX_NETWORK_UNCONTAINED', {
    failed_parameter: '$.grants.net',
    expected: 'net hosts granted, or a runner made with networkCut',
    remediation:
      "The node runner cannot restrict the network (Node's permission model does not cover it), and this run was granted none, " +
      'so it is refused rather than run with the network open. Run the capability with sandbox-quickjs (the default) or sandbox-deno, ' +
      `which contain the network, or set network_cut = true under [plugins."${PLUGIN_NAME}"] only if the network is cut another way.`,
  });
}

/**
 * A runner on Node's permission model. Every run is a fresh `node` process: no state survives from one
 * run to the next. Runs are refused up front when they ask for no network and the network is not cut
 * another way, because Node cannot keep code from opening sockets.
 */
export function createNodeRunner(options: NodeRunnerOptions = {}): SandboxRunner {
  const forbidden = (options.forbidden ?? []).map(realOrResolved);
  const tempRoot = options.tempDir ?? tmpdir();
  const run = async (request: SandboxRunRequest): Promise<SandboxResult> => {
    if (request.signal.aborted) return failure(nodeEnvelope('SANDBOX_CANCELLED', { remediation: 'The run was cancelled before it started; nothing ran.' }));
    if (options.networkCut !== true && (request.grants.net?.length ?? 0) === 0) return failure(networkRefusal());
    checkRequest(request);
    return new NodeRun({ request, limits: limitsOf(request.limits), forbidden, tempRoot }).run();
  };
  return {
    id: 'node',
    description: NODE_RUNNER_DESCRIPTION,
    network: 'uncontained',
    async run(request) {
      try {
        return await run(request);
      } catch (error) {
        return failure(toEnvelope(error, { operation: OPERATION, plugin: PLUGIN_NAME, code: 'SANDBOX_SPAWN_FAILED' }));
      }
    },
  };
}
