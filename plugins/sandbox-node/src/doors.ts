import { EnvelopeError, toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import { type SandboxGrants, type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { checkDoorPath } from './door-path.js';
import { nodeError, PLUGIN_NAME } from './errors.js';
import { fetchThroughDoor } from './fetch-door.js';
import { readWorkspaceText, type DoorApply } from './read-text.js';

/** How one door call ended: the value handed back to the code, or the envelope it is refused with. */
export type DoorAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly envelope: Envelope };

/** What the doors of one run know. */
export interface DoorContext {
  readonly request: Pick<SandboxRunRequest, 'apply' | 'grants' | 'workspace'>;
  /** Real paths no door may reach (nodwyn's data directory). */
  readonly forbidden: readonly string[];
  /** Milliseconds left in the run, for the longest a request may wait. */
  readonly remainingMs: () => number;
}

const GRANT_OF = { readFile: 'read', writeFile: 'write', fetch: 'net' } as const;
type DoorName = keyof typeof GRANT_OF;

function union(a: readonly string[], b: readonly string[]): string[] {
  return b.every((tag) => a.includes(tag)) ? [...a] : [...new Set([...a, ...b])].sort();
}

function granted(grants: SandboxGrants, door: DoorName): boolean {
  if (door === 'fetch') return (grants.net?.length ?? 0) > 0;
  return grants[GRANT_OF[door]] === true;
}

/**
 * The runner's side of `nodwyn.readFile`, `writeFile` and `fetch`. Every call is checked against the run's
 * grants here, in the host, and then made through `apply()` and the guard (read_file, write_file,
 * http_request), never by the child. The run's taint is the union of the taint of every answer, and is
 * passed along on every later call, so a run that read a secret carries its class into its egress.
 */
export class Doors {
  #taint: string[] = [];

  constructor(private readonly context: DoorContext) {}

  /** The union of the taint of every answer so far. */
  get taint(): readonly string[] {
    return this.#taint;
  }

  /** Serves one call the code made; never throws. */
  async serve(op: unknown, args: unknown): Promise<DoorAnswer> {
    try {
      return { ok: true, value: await this.#serve(op, (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>) };
    } catch (error) {
      return { ok: false, envelope: toEnvelope(error, { operation: `nodwyn.${String(op)}`, plugin: PLUGIN_NAME }) };
    }
  }

  async #serve(op: unknown, args: Record<string, unknown>): Promise<unknown> {
    if (op !== 'readFile' && op !== 'writeFile' && op !== 'fetch') {
      throw nodeError('SANDBOX_CHANNEL_CORRUPT', { received_value: op, remediation: 'The nodwyn door has readFile, writeFile, fetch and log only; do not write to file descriptor 3.' });
    }
    const { grants, workspace } = this.context.request;
    if (!granted(grants, op)) {
      const grant = GRANT_OF[op];
      throw nodeError('SANDBOX_GRANT_MISSING', {
        operation: `nodwyn.${op}`,
        failed_parameter: `$.grants.${grant}`,
        expected: grant === 'net' ? 'net: ["host"]' : `${grant}: true`,
        remediation: `nodwyn.${op} needs the ${grant} grant, which this run does not have; ask for it in the capability's grants (${grant === 'net' ? 'net: ["api.example.com"]' : `${grant}: true`}), or do without the ${op} call.`,
      });
    }
    if (op === 'fetch') return fetchThroughDoor(this.#apply, grants.net ?? [], args, this.context.remainingMs());
    const path = await checkDoorPath(workspace, args.path, this.context.forbidden);
    if (op === 'readFile') return readWorkspaceText(this.#apply, path);
    if (typeof args.text !== 'string') {
      throw nodeError('SANDBOX_DOOR_ARGUMENT', { operation: 'nodwyn.writeFile', failed_parameter: '$.text', received_value: typeof args.text, remediation: 'Pass the file content as a string: nodwyn.writeFile(path, text).' });
    }
    await this.#apply('write_file', { path: path.relative, content: args.text });
    return null;
  }

  readonly #apply: DoorApply = async (name, args) => {
    const result = await this.context.request.apply(name, args, { taint: this.#taint });
    if (!result.ok) throw new EnvelopeError(result.envelope);
    this.#taint = union(this.#taint, result.taint);
    return result;
  };
}
