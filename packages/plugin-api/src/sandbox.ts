/**
 * `@nodwyn/plugin-api/sandbox`: what a sandbox runner plugin implements (docs/architecture.md §7): grants,
 * limits, the run request and result, and the token a runner is provided under.
 */
import type { Envelope } from '@nodwyn/protocol';
import type { ApplyResult } from './primitive.js';
import { createToken, type Token } from './tokens.js';

/**
 * What sandboxed code may reach besides computing. Nothing is granted by default. Files are always the
 * workspace's (never the capability registry or `.nodwyn/`), and every host call a guarded runner makes
 * still crosses `apply()` and the guard.
 */
export interface SandboxGrants {
  /** Read files in the workspace. */
  readonly read?: boolean;
  /** Write files in the workspace. */
  readonly write?: boolean;
  /** Hosts (`host` or `host:port`) the code may send requests to; absent or empty: no network at all. */
  readonly net?: readonly string[];
}

/** Limits of one run. */
export interface SandboxLimits {
  /** Wall time of the run (default 45 000). */
  readonly timeoutMs: number;
  /** Largest result plus log output in bytes (default 1 MiB); more is cut and reported. */
  readonly outputCap: number;
  /** Memory the code may allocate, in MiB (default 64). */
  readonly memoryMb: number;
}

/** The defaults of docs/architecture.md §7. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { timeoutMs: 45_000, outputCap: 1024 * 1024, memoryMb: 64 };

/** One run of model-written code. */
export interface SandboxRunRequest {
  readonly session: string;
  /**
   * JavaScript (TypeScript already stripped): an ES module whose default export is a function called as
   * `fn(args, nodwyn)`; its (awaited) return value, JSON-serialisable, is the result. `nodwyn` is the only
   * door out: `readFile(path)`, `writeFile(path, text)`, `fetch(url, { method, headers, body })` →
   * `{ status, headers, body }`, and `log(...values)`.
   */
  readonly code: string;
  readonly args: unknown;
  readonly grants: SandboxGrants;
  readonly limits?: Partial<SandboxLimits>;
  /** The workspace root, a real path. */
  readonly workspace: string;
  /** Aborts the run: the runner interrupts or kills it and answers `CANCELLED`. */
  readonly signal: AbortSignal;
  /** Nested calls through the guard (the calling primitive's `PrimitiveCallContext.apply`). */
  readonly apply: (name: string, args: unknown, options?: { taint?: readonly string[] }) => Promise<ApplyResult>;
}

/** How a run ended. `taint` is the union of every tag the run touched; it marks the whole result. */
export type SandboxResult =
  | { readonly ok: true; readonly value: unknown; readonly logs: string; readonly truncated: boolean; readonly taint: readonly string[] }
  | { readonly ok: false; readonly envelope: Envelope; readonly logs: string; readonly taint: readonly string[] };

/** How a runner contains network access, for docs and for refusing grants it cannot honour. */
export type SandboxNetwork =
  /** Every request goes through `apply('http_request')` and the egress edge (QuickJS). */
  | 'guarded'
  /** The runtime's own permission flags allow only the granted hosts (Deno). */
  | 'flags'
  /** The runner cannot restrict the network; it refuses grants that ask for none unless cut another way (Node). */
  | 'uncontained';

/** Runs model-written code with the grants and limits it is given. Never throws: failures are envelopes. */
export interface SandboxRunner {
  readonly id: string;
  readonly description: string;
  readonly network: SandboxNetwork;
  run(request: SandboxRunRequest): Promise<SandboxResult>;
}

/** The service a sandbox runner plugin provides, one per runner (`sandbox.quickjs`, `sandbox.deno`, …). */
export function sandboxRunnerToken(id: string): Token<SandboxRunner> {
  return createToken<SandboxRunner>(`sandbox.${id}`);
}
