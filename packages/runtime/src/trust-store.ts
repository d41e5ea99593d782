import { z } from '@nodwyn/plugin-api';
import { readFileSync } from 'node:fs';
import { runtimeError } from './errors.js';
import { parseJsonFile, writePrivateJson } from './private-json-file.js';

const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

const TrustRecordSchema = z
  .object({
    /** The folder hash the person agreed to (see `folderHash`). */
    hash: Sha256,
    trusted_at: z.string(),
    /**
     * Per-file hashes, so that `nodwyn trust` can name what changed since. A list, not a table: a file
     * may be called `__proto__`, which an object would swallow.
     */
    files: z.array(z.object({ path: z.string(), hash: Sha256 }).strict()),
  })
  .strict();

const TrustFileSchema = z.object({ version: z.literal(1), workspaces: z.record(z.string(), TrustRecordSchema) }).strict();

/** What was trusted in one workspace. */
export type TrustRecord = z.infer<typeof TrustRecordSchema>;

/**
 * The trusted workspaces, keyed by real path, read from and written to `trust.json` in the data dir.
 * A missing file trusts nothing. A file that does not parse is an envelope, never "trust nothing":
 * nodwyn is its only writer and writes it atomically, so damage means something else touched it, and
 * carrying on would let the next `nodwyn trust` overwrite every other workspace's record unseen.
 */
export class TrustStore {
  private constructor(
    readonly path: string,
    private readonly workspaces: Map<string, TrustRecord>,
  ) {}

  /** Reads the store at `path`. */
  static open(path: string): TrustStore {
    const text = readOrUndefined(path);
    if (text === undefined) return new TrustStore(path, new Map());
    return new TrustStore(path, new Map(Object.entries(parseStore(text, path).workspaces)));
  }

  get(workspace: string): TrustRecord | undefined {
    return this.workspaces.get(workspace);
  }

  /** Records `record` for `workspace` and writes the store. */
  set(workspace: string, record: TrustRecord): void {
    this.workspaces.set(workspace, record);
    this.#save();
  }

  /** Forgets `workspace`; true when it was trusted. Writes the store only when something changed. */
  delete(workspace: string): boolean {
    const had = this.workspaces.delete(workspace);
    if (had) this.#save();
    return had;
  }

  // Written 0600 through a temp file: a crash leaves the old store or the new one, never half of one.
  #save(): void {
    try {
      writePrivateJson(this.path, { version: 1, workspaces: Object.fromEntries(this.workspaces) });
    } catch (error) {
      throw runtimeError(
        'TRUST_STORE_UNWRITABLE',
        {
          operation: 'trust.save',
          received_value: this.path,
          remediation: `nodwyn could not write ${this.path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); make its folder writable and try again.`,
        },
        error,
      );
    }
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw runtimeError(
      'TRUST_STORE_UNREADABLE',
      {
        operation: 'trust.load',
        received_value: path,
        remediation: `nodwyn could not read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)}); make it a file you can read.`,
      },
      error,
    );
  }
}

function parseStore(text: string, path: string): z.infer<typeof TrustFileSchema> {
  const read = parseJsonFile(TrustFileSchema, text);
  if ('data' in read) return read.data;
  const { problem } = read;
  throw runtimeError('TRUST_STORE_CORRUPT', {
    operation: 'trust.load',
    failed_parameter: problem.parameter,
    expected: problem.expected,
    received_value: path,
    remediation: `The trust store ${path} is damaged. Restore it, or delete it to forget every trusted workspace (then run \`nodwyn trust\` again where you want repository config).`,
  });
}
