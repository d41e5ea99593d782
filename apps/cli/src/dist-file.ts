import { EnvelopeError, jsonPath, z } from '@nodwyn/plugin-api';
import { parseConfigToml, validateConfig, type Config } from '@nodwyn/runtime';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliCodes } from './errors.js';

const DistFileSchema = z
  .object({
    name: z.string().min(1),
    version: z.string().min(1),
    /** The default front end: the id after `frontend:` (`tui`, `web`, `desktop`, a plugin's own). */
    frontend: z.string().min(1).optional(),
    plugins: z.array(z.object({ package: z.string().min(1), range: z.string().min(1), optional: z.boolean().optional() }).strict()).default([]),
    /** Default configuration; the person's config.toml is merged over it. */
    config: z.record(z.string(), z.unknown()).default({}),
    distribution: z.object({ unsafe_test_distribution: z.boolean().optional() }).strict().optional(),
  })
  .strict();

/** A distribution file (`nodwyn.dist.toml`), read and checked. */
export interface DistFile {
  /** Its absolute path. */
  readonly path: string;
  /** Its folder: third-party plugins it names resolve from here first. */
  readonly dir: string;
  readonly name: string;
  readonly version: string;
  readonly frontend?: string;
  readonly plugins: readonly { readonly package: string; readonly range: string; readonly optional?: boolean }[];
  readonly config: Config;
  /** `[distribution] unsafe_test_distribution = true`: the required security plugins are not added. */
  readonly unsafeTest: boolean;
}

/**
 * Reads the distribution file at `file`. A missing or unreadable file, bad TOML (with its line and
 * column), an unknown key or a bad value is an envelope naming the file and the key; never a crash.
 */
export function readDistFile(file: string, parameter = '--distribution'): DistFile {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new EnvelopeError(
      {
        category: code === 'ENOENT' ? 'NOT_FOUND' : 'PRECONDITION_FAILED',
        code: CliCodes.DISTRIBUTION_FILE_UNREADABLE,
        operation: 'distribution.load',
        failed_parameter: parameter,
        received_value: path,
        expected: 'a nodwyn.dist.toml file you can read',
        remediation: `nodwyn could not read the distribution file ${path} (${code}); give ${parameter === '--distribution' ? '--distribution (or NODWYN_DISTRIBUTION)' : parameter} the path of a nodwyn.dist.toml.`,
      },
      { cause: error },
    );
  }
  const parsed = DistFileSchema.safeParse(parseConfigToml(text, path));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = jsonPath(issue.path);
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: CliCodes.DISTRIBUTION_FILE_INVALID,
      operation: 'distribution.load',
      failed_parameter: key,
      received_value: path,
      expected: issue.message,
      remediation: `Fix ${key} in the distribution file ${path}: ${issue.message}. It takes name, version, frontend, [[plugins]] (package, range, optional), [config] and [distribution] unsafe_test_distribution.`,
    });
  }
  const data = parsed.data;
  return {
    path,
    dir: dirname(path),
    name: data.name,
    version: data.version,
    frontend: data.frontend,
    plugins: data.plugins,
    config: validateConfig(data.config, `${path} [config]`),
    unsafeTest: data.distribution?.unsafe_test_distribution === true,
  };
}
