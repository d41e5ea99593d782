import type { Kernel } from '@nodwyn/kernel';
import { modelsOf, toEnvelope, type ModelInfo, type ProviderFactory } from '@nodwyn/plugin-api';
import { providerOptionsFrom, validateConfig } from '@nodwyn/runtime';
import { serverErrors } from './errors.js';
import { readPersonConfig, writePersonConfig } from './person-config.js';
import { offeredProviders, setupFacts } from './provider-choices.js';
import { runPluginCommand } from './setup-commands.js';

/** The class of a provider's key: the control plane, bound to the provider's host only (architecture §5). */
export const PROVIDER_KEY_CLASS = 'control-plane';
/** Where the provider plugins send their key (`authorization: Bearer …`), and with which method. */
const KEY_BINDING = { position: ['header:authorization'], method: ['POST'] } as const;

/** `_nodwyn/providers/configure`'s params. */
export interface ProviderSetup {
  readonly provider: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly baseUrl?: string;
}

/** What was written where: never the key. */
export interface ProviderSetupResult {
  readonly provider: string;
  readonly model: string;
  /** The keychain secret config.toml names, when the provider has a key. */
  readonly secret?: string;
  /** The config file written. */
  readonly config: string;
}

/** Everything setup will write, decided and checked before anything is. */
interface SetupPlan {
  readonly provider: string;
  readonly model: string;
  /** The key to store, when one was given. */
  readonly key?: string;
  /** The secret config.toml will name, and the host its class is bound to. */
  readonly secret?: string;
  readonly host?: string;
  /** Whether the keychain held `secret`, and whether a binding of the class named `host`, before. */
  readonly had: { readonly secret: boolean; readonly binding: boolean };
  readonly config: Record<string, unknown>;
}

/**
 * First-run setup, done safely: the key goes into the keychain as a secret named after the provider, of
 * the `control-plane` class, and that class is bound to the provider's host (its base URL's, when one is
 * given) at the `authorization` header for POST, by running the keychain's and the egress plugin's own
 * commands; then `[provider] default` and `[provider.<id>]` (`model`, `api_key` = the secret's NAME,
 * `base_url`) are written to the person's config.toml, the rest of it kept. Everything is checked first
 * (the provider, the model, the base URL, the key, the resulting config, and that the provider can be
 * made with it), so a refusal changes nothing; what was added before a later step failed is removed again.
 */
export async function configureProvider(kernel: Kernel, configFile: string, request: ProviderSetup): Promise<ProviderSetupResult> {
  const plan = await planSetup(kernel, configFile, request);
  await applySetup(kernel, configFile, plan);
  return { provider: plan.provider, model: plan.model, ...(plan.secret ? { secret: plan.secret } : {}), config: configFile };
}

async function planSetup(kernel: Kernel, configFile: string, request: ProviderSetup): Promise<SetupPlan> {
  const factory = offered(kernel, request.provider);
  const id = factory.id;
  const facts = setupFacts(id);
  const baseUrl = checkedBaseUrl(request.baseUrl, id, facts.needsBaseUrl);
  const raw = readPersonConfig(configFile);
  const current = validateConfig(raw, configFile);
  checkModel(id, request.model, modelsOf(id, factory.models ?? [], current));
  const key = request.apiKey?.trim() || undefined;
  const stored = current.provider?.[id]?.api_key;
  const secret = key !== undefined ? id : facts.needsKey ? stored : undefined;
  if (facts.needsKey && secret === undefined) throw keyRequired(id);
  const host = secret === undefined ? undefined : baseUrl !== undefined ? new URL(baseUrl).host : (facts.host ?? hostUnknown(id));
  const had = host === undefined ? { secret: false, binding: false } : await holdings(kernel, secret!, host);
  if (key === undefined && secret !== undefined && !had.secret) throw keyRequired(id, secret);
  const { base_url: _url, api_key: _key, ...kept } = current.provider?.[id] ?? {};
  const section = { ...kept, model: request.model, ...(secret ? { api_key: secret } : {}), ...(baseUrl ? { base_url: baseUrl } : {}) };
  const config = { ...raw, provider: { ...tableOf(raw.provider), default: id, [id]: section } };
  // What the next prompt does with it, short of the network: options, base URL, and the key's handle.
  await factory.create(providerOptionsFrom(validateConfig(config, configFile), id));
  return { provider: id, model: request.model, ...(key ? { key } : {}), ...(secret ? { secret } : {}), ...(host ? { host } : {}), had, config };
}

async function applySetup(kernel: Kernel, configFile: string, plan: SetupPlan): Promise<void> {
  const undo: { what: string; run: () => Promise<unknown> }[] = [];
  try {
    if (plan.secret !== undefined && plan.host !== undefined) {
      const { secret, host } = plan;
      if (plan.key !== undefined) {
        await runPluginCommand(kernel, 'secret', ['add', secret], { class: PROVIDER_KEY_CLASS, force: true }, plan.key);
        if (!plan.had.secret) undo.push({ what: `the secret ${secret}`, run: () => runPluginCommand(kernel, 'secret', ['rm', secret], {}) });
      }
      await runPluginCommand(kernel, 'bind', ['add', PROVIDER_KEY_CLASS], { host, ...KEY_BINDING });
      if (!plan.had.binding) undo.push({ what: `the binding of ${PROVIDER_KEY_CLASS} to ${host}`, run: () => runPluginCommand(kernel, 'bind', ['rm', PROVIDER_KEY_CLASS], { host }) });
    }
    writePersonConfig(configFile, plan.config);
  } catch (error) {
    throw await undone(undo.reverse(), error);
  }
}

/** Takes back what setup added before it failed; when that fails too, the envelope says what is left. */
async function undone(steps: readonly { what: string; run: () => Promise<unknown> }[], error: unknown): Promise<unknown> {
  const left: string[] = [];
  for (const step of steps) await step.run().catch(() => left.push(step.what));
  if (left.length === 0) return error;
  const envelope = toEnvelope(error, { operation: 'providers/configure' });
  return serverErrors.error(
    'SETUP_COMMAND_FAILED',
    { operation: 'providers/configure', remediation: `${envelope.remediation} Setup could not take back ${left.join(' and ')}; see \`nodwyn secret list\` and \`nodwyn bind list\`.` },
    error,
  );
}

/** Whether the keychain holds `secret`, and whether the key class is bound to `host` already (also: both files can be read). */
async function holdings(kernel: Kernel, secret: string, host: string): Promise<{ secret: boolean; binding: boolean }> {
  const secrets: unknown = JSON.parse((await runPluginCommand(kernel, 'secret', ['list'], { json: true })).stdout);
  const bindings: unknown = JSON.parse((await runPluginCommand(kernel, 'bind', ['list'], { json: true })).stdout);
  const names = Array.isArray(secrets) ? secrets.map((s: { name?: unknown }) => s.name) : [];
  const bound = (tableOf(bindings)[PROVIDER_KEY_CLASS] ?? []) as { host?: unknown }[];
  return { secret: names.includes(secret), binding: Array.isArray(bound) && bound.some((d) => d.host === host) };
}

function offered(kernel: Kernel, id: string): ProviderFactory {
  const all = offeredProviders(kernel);
  const found = all.find((f) => f.id === id);
  if (found) return found;
  throw serverErrors.error('PROVIDER_UNKNOWN', {
    operation: 'providers/configure',
    failed_parameter: '$.provider',
    received_value: id,
    expected: all.map((f) => f.id).join(', '),
    remediation: `There is no provider "${id}" to set up; pick one of those _nodwyn/providers/list offers.`,
  });
}

function checkedBaseUrl(raw: string | undefined, id: string, needed: boolean): string | undefined {
  const problem = (remediation: string) => serverErrors.error('BASE_URL_INVALID', { operation: 'providers/configure', failed_parameter: '$.baseUrl', received_value: raw, expected: 'an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1', remediation });
  if (raw === undefined) {
    if (needed) throw problem(`${id} needs the API root of its server (Ollama http://127.0.0.1:11434/v1, llama.cpp http://127.0.0.1:8080/v1, LM Studio http://127.0.0.1:1234/v1).`);
    return undefined;
  }
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw problem(`Give the API root of the server as an http:// or https:// URL.`);
  return raw;
}

function checkModel(id: string, model: string, known: readonly ModelInfo[]): void {
  if (known.length === 0 || known.some((m) => m.id === model)) return;
  throw serverErrors.error('MODEL_UNKNOWN', {
    operation: 'providers/configure',
    failed_parameter: '$.model',
    received_value: model,
    expected: known.map((m) => m.id).join(', '),
    remediation: `${id} has no model "${model}"; pick one it lists, or price the model in config.toml ([prices.${id}."${model}"]) to use it.`,
  });
}

function keyRequired(id: string, missing?: string): Error {
  return serverErrors.error('API_KEY_REQUIRED', {
    operation: 'providers/configure',
    failed_parameter: '$.apiKey',
    remediation: missing
      ? `config.toml names the secret ${missing} for ${id}, but the keychain does not hold it; give the API key again.`
      : `${id} needs an API key; give it (it is stored in the keychain and bound to ${id}'s host, never written to a file).`,
  });
}

function hostUnknown(id: string): never {
  throw serverErrors.error('KEY_HOST_UNKNOWN', {
    operation: 'providers/configure',
    failed_parameter: '$.baseUrl',
    remediation: `nodwyn does not know where ${id}'s API is, so it cannot bind the key to it; give the base URL of its API with the key.`,
  });
}

/** A TOML table (smol-toml's have no prototype), or an empty one. */
function tableOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

