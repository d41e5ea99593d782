import { jsonPath, TOOL_ARGS_LIMITS, z } from '@nodwyn/plugin-api';
import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { runtimeError } from './errors.js';

const positive = z.number().int().positive();
const usdPerMillion = z.number().nonnegative().finite();

/** `[provider.<id>]`: options for one provider (model, base_url, api_key, …), all strings as on the command line. */
const ProviderOptionsSchema = z.record(z.string(), z.string());

/** `[prices.<provider>."<model>"]`: USD per million tokens, extending the provider plugin's own table. */
const PriceSchema = z
  .object({ input: usdPerMillion, output: usdPerMillion, cache_read: usdPerMillion.optional(), cache_write: usdPerMillion.optional() })
  .strict();

/** The user configuration (TOML). Unknown top-level tables are kept for plugins to read. */
export const ConfigSchema = z
  .object({
    provider: z.object({ default: z.string().optional() }).catchall(ProviderOptionsSchema).optional(),
    prices: z.record(z.string(), z.record(z.string(), PriceSchema)).optional(),
    loop: z.object({ default: z.string().optional() }).strict().optional(),
    budgets: z
      .object({
        max_turns: positive.optional(),
        max_tool_calls: positive.optional(),
        max_tokens: positive.optional(),
        max_wall_ms: positive.optional(),
        max_repeats: z.number().int().min(2).optional(),
        window_tokens: positive.optional(),
        answer_tokens: positive.optional(),
        max_retries: z.number().int().nonnegative().optional(),
        max_cost_usd: z.number().positive().optional(),
        max_tool_args_bytes: positive.max(TOOL_ARGS_LIMITS.maxBytes).optional(),
      })
      .strict()
      .optional(),
    distribution: z
      .object({
        disabled: z.array(z.string()).optional(),
        plugins: z.array(z.object({ package: z.string(), range: z.string(), optional: z.boolean().optional() }).strict()).optional(),
        /** The front end a distribution that honours it starts by default: the id of a plugin's `frontend:<id>`. */
        frontend: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    plugins: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    /** `[serve]`: where the daemon listens; a host beyond loopback needs both TLS files (PEM paths). */
    serve: z.object({ host: z.string().min(1).optional(), tls_cert: z.string().min(1).optional(), tls_key: z.string().min(1).optional() }).strict().optional(),
    // Plugins read the rest of `[policy]` (the egress plugin's allow_insecure_http) and check it themselves.
    policy: z.object({ max_strikes: positive.optional() }).passthrough().optional(),
  })
  .passthrough();

/** A validated configuration. */
export type Config = z.infer<typeof ConfigSchema>;

/** Reads and checks the config file; a missing file is an empty config, a broken one an envelope. */
export function loadConfig(path: string): Config {
  const text = readConfigText(path);
  return text === undefined ? {} : validateConfig(parseConfigToml(text, path), path);
}

function readConfigText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Missing, or a parent folder is missing or a file: there is no config, as on a fresh machine.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    const folder = code === 'EISDIR';
    throw runtimeError(
      folder ? 'CONFIG_NOT_A_FILE' : 'CONFIG_UNREADABLE',
      {
        operation: 'config.load',
        received_value: path,
        expected: 'a TOML file you can read',
        remediation: folder ? `${path} is a folder; nodwyn reads its configuration from a TOML file there. Move the folder away.` : `nodwyn could not read ${path} (${code ?? String(error)}); make it a file you can read.`,
      },
      error,
    );
  }
}

/** Parses config TOML; a syntax error is an envelope naming `path`, line and column. */
export function parseConfigToml(text: string, path: string): Record<string, unknown> {
  try {
    return parse(text);
  } catch (error) {
    const where = error instanceof TomlError ? ` at line ${error.line}, column ${error.column}` : '';
    throw runtimeError('CONFIG_INVALID_TOML', { operation: 'config.load', received_value: path, remediation: `Fix the TOML syntax of ${path}${where}.` }, error);
  }
}

/** Checks parsed config against the schema; the first problem is an envelope naming the key and `path`. */
export function validateConfig(raw: unknown, path: string): Config {
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw runtimeError('CONFIG_INVALID', {
      operation: 'config.load',
      failed_parameter: jsonPath(issue.path),
      expected: issue.message,
      remediation: `Fix ${jsonPath(issue.path)} in ${path}: ${issue.message}.`,
    });
  }
  return parsed.data;
}
