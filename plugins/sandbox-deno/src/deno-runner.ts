import { isInside, toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, type SandboxResult, type SandboxRunner, type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { randomBytes } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { denoArgv } from './deno-argv.js';
import { resolveDenoBinary } from './deno-binary.js';
import { runDenoProcess } from './deno-process.js';
import { denoEnvelope, denoError, OPERATION, PLUGIN_NAME } from './errors.js';
import { HARNESS_SOURCE } from './harness-source.js';
import { normalizeNetHosts } from './net-hosts.js';
import { DenoDoors } from './doors.js';
import { endings } from './run-endings.js';

/** How a Deno runner is set up. */
export interface DenoRunnerOptions {
  /** The Deno binary; by default the one the `deno` npm package installed for this platform. */
  readonly binary?: string;
  /** Where each run's temp folder (the harness) is made; default the OS temp folder. Never inside a workspace. */
  readonly tempDir?: string;
  /** Paths no run may reach besides `.nodwyn/`: the plugin passes nodwyn's data directory. */
  readonly forbidden?: readonly string[];
  /**
   * Accept runs granted both `read` and `net`. Deno's requests never cross `apply()`, so the egress edge
   * cannot see that a request carries what the run read from the workspace (redacted, but a secret L1
   * does not recognise stays as it is); by default such runs are refused (SANDBOX_UNGUARDED_EGRESS) and
   * belong on the quickjs runner.
   */
  readonly unguardedEgress?: boolean;
}

/** Shown in listings and to the model: what this runner is for and what it contains. */
export const DENO_RUNNER_DESCRIPTION =
  "Deno in a fresh process per run, with no file permissions: nodwyn.readFile and writeFile go through nodwyn's guard as " +
  "read_file and write_file (never .nodwyn/ nor nodwyn's folders). Deno's permission flags allow network only to the granted " +
  'hosts, and no processes, environment, FFI or system information. Web APIs and Deno APIs are available; imports only from ' +
  "the code itself (no network or npm). Requests do not pass nodwyn's egress edge.";

function limitsOf(requested: Partial<SandboxLimits> | undefined): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...requested };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw denoError('SANDBOX_LIMITS_INVALID', { failed_parameter: `$.limits.${name}`, received_value: value, expected: 'a positive number', remediation: `Set limits.${name} to a positive number, or leave it out for the default.` });
    }
  }
  return limits;
}

function argsJson(args: unknown): unknown {
  try {
    const text = JSON.stringify(args);
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch (error) {
    throw denoError('SANDBOX_ARGS_NOT_JSON', { failed_parameter: '$.args', remediation: `The args cannot be sent as JSON (${(error as Error).message}); pass plain data.` }, error);
  }
}

function realFolder(path: string, what: string): string {
  try {
    const real = realpathSync(path);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // Missing or unreadable: reported below like a path that is not a folder.
  }
  throw denoError('SANDBOX_WORKSPACE_INVALID', { received_value: path, expected: 'an existing folder', remediation: `The ${what} ${path} is not an existing folder; pass the real path of one.` });
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there yet: judged by the path it will have.
    return path;
  }
}

function unguarded(): Envelope {
  return denoEnvelope('SANDBOX_UNGUARDED_EGRESS', {
    failed_parameter: '$.grants',
    expected: 'read or net, not both',
    remediation:
      "A Deno run granted both read and net could send any workspace file (a .env included) to a granted host without nodwyn's egress edge seeing it; run this capability on the quickjs runner, whose fetch goes through the edge, or drop one of the grants.",
  });
}

/**
 * A `SandboxRunner` on Deno: every run is a fresh `deno run` of a small harness in its own temp folder,
 * with a DENO_DIR that cannot exist (so nothing a run stores, localStorage or caches included, outlives
 * it), an environment of five variables and none of the host's, no file permissions (its file doors are
 * served by the host through the guard, see `DenoDoors`), and a net flag derived from the grants (see
 * `denoArgv`). The host enforces the limits from outside: a timer, the
 * signal, an output count and a resident-memory watchdog each kill the process group.
 */
export function createDenoRunner(options: DenoRunnerOptions = {}): SandboxRunner {
  let binary = options.binary;
  const forbidden = (options.forbidden ?? []).map(realOrSelf);

  async function run(request: SandboxRunRequest): Promise<SandboxResult> {
    if (request.signal.aborted) return { ok: false, envelope: endings.cancelled(), logs: '', taint: [] };
    const limits = limitsOf(request.limits);
    if (typeof request.code !== 'string') throw denoError('SANDBOX_CODE_INVALID', { failed_parameter: '$.code', received_value: typeof request.code, remediation: 'Pass the code as a string holding an ES module.' });
    const args = argsJson(request.args);
    const read = request.grants.read === true;
    const write = request.grants.write === true;
    const net = normalizeNetHosts(request.grants.net);
    if (read && net.length > 0 && options.unguardedEgress !== true) return { ok: false, envelope: unguarded(), logs: '', taint: [] };
    binary ??= resolveDenoBinary();
    const workspace = realFolder(request.workspace, 'workspace');
    const tempBase = realFolder(options.tempDir ?? tmpdir(), 'temp folder');
    if (isInside(workspace, tempBase)) {
      throw denoError('SANDBOX_WORKSPACE_INVALID', { received_value: tempBase, remediation: 'The runner\'s temp folder lies inside the workspace, where another run could change a harness before it starts; set tempDir outside the workspace.' });
    }
    const doors = new DenoDoors(request, forbidden);
    const runDir = await mkdtemp(join(tempBase, 'nodwyn-deno-'));
    try {
      const harness = join(runDir, 'harness.js');
      await writeFile(harness, HARNESS_SOURCE, { mode: 0o600 });
      const argv = denoArgv({ harness, net, memoryMb: limits.memoryMb });
      const nonce = randomBytes(16).toString('hex');
      const result = await runDenoProcess({
        binary,
        argv,
        // DENO_DIR under a file can never be created: Deno keeps its own caches in memory, and localStorage
        // and the Cache API fail, so no run can leave anything for the next (and no run pays for the
        // sqlite caches a fresh DENO_DIR would get, ~5 ms measured).
        env: { DENO_DIR: join(harness, 'deno-dir'), HOME: runDir, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_NO_PACKAGE_JSON: '1' },
        cwd: runDir,
        input: JSON.stringify({ nonce, code: request.code, args, read, write, net, outputCap: limits.outputCap }),
        nonce,
        limits,
        signal: request.signal,
        serve: (call) => doors.serve(call),
        doorEnvelope: (ref) => doors.envelope(ref),
      });
      // Whatever the run read marks all it returns, as with every runner whose doors cross the guard.
      return { ...result, taint: doors.taint };
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  }

  return {
    id: 'deno',
    description: DENO_RUNNER_DESCRIPTION,
    network: 'flags',
    async run(request) {
      try {
        return await run(request);
      } catch (error) {
        return { ok: false, envelope: toEnvelope(error, { operation: OPERATION, plugin: PLUGIN_NAME }), logs: '', taint: [] };
      }
    },
  };
}
