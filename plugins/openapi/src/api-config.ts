import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { jsonPath, z } from '@nodwyn/plugin-api';
import { parse, stringify } from 'smol-toml';
import { openApiError } from './errors.js';

/** API names: the tools' prefix, short enough to leave room for the operation in 64 characters. */
export const API_NAME = /^[a-z][a-z0-9_]{0,23}$/;

/** A credential for a security scheme: a keychain handle, `secret:NAME`. */
const SecretRef = z.string().regex(/^secret:[A-Za-z0-9_.-]{1,64}$/, 'a keychain handle such as "secret:acme_token"');

const ApiEntry = z
  .object({
    /** The document: the bundled copy (relative to the config folder) or a file the person names. */
    document: z.string().min(1).optional(),
    /** Where `nodwyn openapi add` read it from (shown by `list`). */
    source: z.string().optional(),
    /** sha256 of the copy, validated when it was added; a copy that matches is not validated again. */
    digest: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    operations: z.array(z.string().min(1)).optional(),
    base_url: z.string().url().optional(),
    /** Security scheme name → keychain handle. */
    auth: z.record(z.string(), SecretRef).optional(),
    /** The oauth2 scheme `nodwyn openapi login` authorized, and the client it registered as. */
    oauth: z
      .object({
        scheme: z.string().min(1),
        client_id: z.string().min(1),
        client_secret: SecretRef.optional(),
        scopes: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** One API as configured. */
export type ApiEntry = z.infer<typeof ApiEntry>;

const RegistryFile = z.object({ apis: z.record(z.string().regex(API_NAME), ApiEntry).default({}) }).strict();
const PluginSection = z.object({ apis: z.record(z.string().regex(API_NAME), ApiEntry).default({}) }).passthrough();

/** openapi.toml, next to config.toml: written by `nodwyn openapi add/remove`, like bindings.toml by `nodwyn bind`. */
export function registryPath(configDir: string): string {
  return join(configDir, 'openapi.toml');
}

/** Where `nodwyn openapi add` keeps the bundled copy of an API's document. */
export function copyPath(configDir: string, api: string): string {
  return join(configDir, 'openapi', `${api}.json`);
}

function invalid(where: string, issue: z.core.$ZodIssue, file: string): Error {
  return openApiError('OPENAPI_CONFIG_INVALID', {
    operation: 'openapi.config',
    failed_parameter: jsonPath([...where.split('.').filter(Boolean), ...issue.path]),
    expected: issue.message,
    remediation: `Fix ${file} (see docs/openapi.md, "Configuration").`,
  });
}

/** The registry of `nodwyn openapi add`, empty when the file does not exist. */
export function readRegistry(configDir: string): Record<string, ApiEntry> {
  const file = registryPath(configDir);
  if (!existsSync(file)) return {};
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw openApiError('OPENAPI_CONFIG_INVALID', { operation: 'openapi.config', failed_parameter: file, expected: 'TOML', remediation: `${file} is not valid TOML; fix it or remove it.` }, cause);
  }
  const result = RegistryFile.safeParse(raw);
  if (!result.success) throw invalid('', result.error.issues[0]!, file);
  return result.data.apis;
}

/** Rewrites openapi.toml atomically (a temp file renamed over it). */
export function writeRegistry(configDir: string, apis: Readonly<Record<string, ApiEntry>>): void {
  const file = registryPath(configDir);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const header = '# OpenAPI documents nodwyn turns into tools. Written by `nodwyn openapi add/remove`.\n\n';
  writeFileSync(temp, header + stringify({ apis }), { mode: 0o600 });
  renameSync(temp, file);
}

/** An API ready to load: its name, the merged entry and the document's absolute path. */
export interface ConfiguredApi {
  readonly name: string;
  readonly entry: ApiEntry;
  readonly document: string;
}

/**
 * The person's APIs: openapi.toml's entries with the plugin's config section (`[plugins."@nodwyn/plugin-openapi".apis.NAME]`
 * in the person's config.toml) merged over them field by field. The plugin's manifest says
 * `userOnlyConfig`, so a repository's config never reaches this section: which APIs become tools and
 * which secrets they carry is the person's decision alone (docs/architecture.md §6).
 */
export function configuredApis(configDir: string, section: Readonly<Record<string, unknown>>): ConfiguredApi[] {
  const registry = readRegistry(configDir);
  const result = PluginSection.safeParse(section);
  if (!result.success) throw invalid('plugins.@nodwyn/plugin-openapi', result.error.issues[0]!, 'config.toml');
  const names = [...new Set([...Object.keys(registry), ...Object.keys(result.data.apis)])].sort();
  return names.map((name) => {
    const entry = { ...registry[name], ...result.data.apis[name] };
    if (entry.document === undefined) {
      throw openApiError('OPENAPI_CONFIG_INVALID', {
        operation: 'openapi.config',
        failed_parameter: `$.plugins["@nodwyn/plugin-openapi"].apis.${name}.document`,
        expected: 'the path of an OpenAPI document',
        remediation: `API ${name} names no document. Add it with \`nodwyn openapi add FILE --name ${name}\`, or set document = "/path/to/openapi.yaml".`,
      });
    }
    const document = isAbsolute(entry.document) ? entry.document : join(configDir, entry.document);
    // A digest vouches only for the copy it was recorded with.
    const vouched = registry[name]?.document === entry.document ? entry : { ...entry, digest: undefined };
    return { name, entry: vouched, document };
  });
}
