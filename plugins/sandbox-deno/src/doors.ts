import { ContractCodes, EnvelopeError, isInside, protectedFolderOf, realpathLoose, readText, realProtectedFolders, toEnvelope, touchesNodwynFolder, type Envelope } from '@nodwyn/plugin-api';
import { type SandboxRunRequest } from '@nodwyn/plugin-api/sandbox';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DoorReply } from './deno-process.js';
import { denoError, PLUGIN_NAME } from './errors.js';

function union(a: readonly string[], b: readonly string[]): string[] {
  return b.every((tag) => a.includes(tag)) ? [...a] : [...new Set([...a, ...b])].sort();
}

/**
 * The host's side of a Deno run's `nodwyn.readFile` and `nodwyn.writeFile`: each call is checked here
 * (grant, path, nodwyn's own folders by real path) and then made through `apply()` and the guard, as
 * read_file or write_file. So what the code reads passed the text layers (a `.env` token arrives as
 * `[REDACTED …]`, whatever the code does with it next) and its taint marks the whole run, and a write
 * meets the same checks and confirmations as the model's own. Envelopes stay here; the harness gets a
 * reference to report.
 */
export class DenoDoors {
  readonly #envelopes: Envelope[] = [];
  #taint: string[] = [];

  constructor(
    private readonly request: Pick<SandboxRunRequest, 'apply' | 'grants' | 'workspace'>,
    /** Real paths no door may reach besides `.nodwyn/` (nodwyn's data directory). */
    private readonly forbidden: readonly string[],
  ) {}

  /** The union of the taint of every answer so far. */
  get taint(): readonly string[] {
    return this.#taint;
  }

  /** The envelope a reply's `ref` names, for the run's result. */
  envelope(ref: unknown): Envelope | undefined {
    return typeof ref === 'number' ? this.#envelopes[ref] : undefined;
  }

  /** Serves one `call` record; never throws. */
  async serve(json: string): Promise<DoorReply> {
    try {
      return { ok: true, value: await this.#serve(JSON.parse(json) as { op?: unknown; args?: { path?: unknown; text?: unknown } }) };
    } catch (error) {
      const envelope = toEnvelope(error, { operation: 'sandbox.deno', plugin: PLUGIN_NAME });
      this.#envelopes.push(envelope);
      return { ok: false, code: envelope.code ?? ContractCodes.SANDBOX_DOOR_ARGUMENT, message: envelope.remediation, ref: this.#envelopes.length - 1 };
    }
  }

  async #serve(call: { op?: unknown; args?: { path?: unknown; text?: unknown } }): Promise<unknown> {
    const { op, args = {} } = call;
    const grant = op === 'readFile' ? 'read' : op === 'writeFile' ? 'write' : undefined;
    if (grant === undefined || this.request.grants[grant] !== true || typeof args.path !== 'string') {
      throw denoError('SANDBOX_DOOR_ARGUMENT', { received_value: String(op), remediation: 'The nodwyn door has readFile(path) and writeFile(path, text), each with its grant.' });
    }
    const path = await this.#confine(args.path, `nodwyn.${String(op)}`);
    if (op === 'readFile') return readText(this.#apply, path, 'nodwyn.readFile', denoError);
    if (typeof args.text !== 'string') throw denoError('SANDBOX_DOOR_ARGUMENT', { failed_parameter: '$.text', remediation: 'Pass the file content as a string.' });
    const result = await this.#apply('write_file', { path, content: args.text });
    if (!result.ok) throw new EnvelopeError(result.envelope);
    return null;
  }

  /** The runner's own check, by real path, before the file tool checks again with its own rules. */
  async #confine(path: string, door: string): Promise<string> {
    const root = await realpath(this.request.workspace);
    const real = await realpathLoose(resolve(root, path));
    const failure = { operation: door, failed_parameter: '$.path', received_value: path };
    if (!isInside(root, real)) {
      throw denoError('SANDBOX_PATH_OUTSIDE', { ...failure, remediation: `${path} leads out of the workspace through a symlink; only files inside it are reachable.` });
    }
    const folders = await realProtectedFolders(root, this.forbidden.map((folder) => ({ path: folder, name: "nodwyn's data folder" })));
    if (touchesNodwynFolder(root, real) || protectedFolderOf(real, folders) !== undefined) {
      throw denoError('SANDBOX_PATH_RESERVED', { ...failure, remediation: ".nodwyn/ and nodwyn's own folders are never reachable from sandboxed code, whatever the grants; use another path." });
    }
    return path;
  }

  readonly #apply = async (name: string, args: unknown) => {
    const result = await this.request.apply(name, args, { taint: this.#taint });
    if (result.ok) this.#taint = union(this.#taint, result.taint);
    return result;
  };
}
