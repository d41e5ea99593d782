import type { DependencyContainer } from 'tsyringe';
import {
  ContractCodes,
  EnvelopeError,
  type DependencyInfo,
  type LogReader,
  type Manifest,
  type PluginContext,
  type PluginStore,
  type PrimitiveDefinition,
  type Token,
  type WorkspaceTrust,
} from '@nodwyn/plugin-api';
import { asPersonsCommand, inPersonsCommand } from './command-scope.js';
import type { ContributionBuffer, ProvidedService } from './contributions.js';
import { hostEnvelopeInit } from './errors.js';
import { isRecord } from './is-record.js';
import type { KernelPort } from './kernel-port.js';

/** What one plugin's context is built from. */
export interface PluginContextInput {
  readonly manifest: Manifest;
  readonly kernel: KernelPort;
  /** The whole settings object, already deep-frozen. */
  readonly settings: Readonly<Record<string, unknown>>;
  readonly workspace: string;
  readonly trust: WorkspaceTrust;
  readonly dataDir: string;
  readonly configDir: string;
  /**
   * The service names the plugin declared (its `requires` and `provides` of kind `service`, and its
   * `deps`): `services.get` of any other is refused, so what a plugin uses is what its definition says.
   */
  readonly declaredServices: ReadonlySet<string>;
  /** The plugin's own child container; `services.get` resolves here (and so in the root). */
  readonly container: DependencyContainer;
  readonly contributions: ContributionBuffer;
}

const EMPTY_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Builds the `PluginContext` a plugin receives. Every registry writes to the plugin's contribution
 * buffer (see ContributionBuffer for why nothing reaches the kernel during `register`); the container
 * stays behind `services` so the plugin never holds it.
 */
export function createPluginContext(input: PluginContextInput): PluginContext {
  const { manifest, kernel, contributions } = input;
  const name = manifest.name;
  let store: PluginStore | undefined;
  const context: PluginContext = {
    plugin: { name, version: manifest.version },
    config: pluginConfig(input.settings, name),
    settings: input.settings,
    workspace: input.workspace,
    trust: input.trust,
    dataDir: input.dataDir,
    configDir: input.configDir,
    get log(): LogReader {
      if (!manifest.permissions.includes('log.read')) throw permissionDenied(name, 'context.log', 'log.read');
      return kernel.log;
    },
    primitives: {
      register<I>(definition: PrimitiveDefinition<I>, options?: { replace?: boolean }): void {
        // Erasing I is safe: the kernel parses arguments with `definition.input` before the handler sees them.
        const erased = definition as unknown as PrimitiveDefinition<unknown>;
        contributions.add({ kind: 'primitive', name: definition.name, definition: erased, replace: options?.replace === true });
      },
      addSource: (source) => contributions.add({ kind: 'primitive-source', name: source.name, source }),
      list: () => kernel.listPrimitives(),
    },
    providers: { register: (factory) => contributions.add({ kind: 'provider', name: factory.id, factory }) },
    models: { complete: (request) => kernel.completeModel(name, request) },
    loops: { register: (strategy) => contributions.add({ kind: 'loop', name: strategy.id, strategy }) },
    guard: { addStage: (stage) => contributions.add({ kind: 'guard-stage', name: stage.name, stage }) },
    commands: { register: (command) => contributions.add({ kind: 'command', name: command.name, command: asPersonsCommand(name, command) }) },
    frontends: { register: (frontend) => contributions.add({ kind: 'frontend', name: String(frontend?.id), frontend }) },
    agentCommands: { register: (command) => contributions.add({ kind: 'agent-command', name: String(command?.name), command }) },
    context: { register: (contributor) => contributions.add({ kind: 'context', name: String(contributor?.id), contributor }) },
    events: { append: (session, type, payload) => kernel.appendEvent(name, session, type, payload) },
    calls: {
      session: (title) => kernel.createSession(name, title),
      apply: (call) => kernel.applyAsHost(name, call, { forCommand: inPersonsCommand(name) }),
    },
    get store(): PluginStore {
      store ??= kernel.store(name);
      return store;
    },
    services: {
      provide<T>(token: Token<T>, value: T): void {
        contributions.add({ kind: 'service', name: token.name, key: token.key, value, ...(token.permission ? { permission: token.permission } : {}) });
      },
      get<T>(token: Token<T>): T {
        const operation = `services.get(${token.name})`;
        if (!input.declaredServices.has(token.name)) throw undeclared(name, token.name);
        if (token.permission && !manifest.permissions.includes(token.permission)) throw permissionDenied(name, operation, token.permission);
        const provided = contributions.pendingService(token.key) ?? resolveService(input.container, token, name);
        // The provider's permission, not the caller's token, decides: a token is forged by its name alone.
        if (provided.permission && !manifest.permissions.includes(provided.permission)) throw permissionDenied(name, operation, provided.permission);
        return provided.value as T;
      },
    },
  };
  return Object.freeze(context);
}

function pluginConfig(settings: Readonly<Record<string, unknown>>, name: string): Readonly<Record<string, unknown>> {
  const plugins = settings.plugins;
  const section = isRecord(plugins) ? plugins[name] : undefined;
  return isRecord(section) ? section : EMPTY_CONFIG;
}

function resolveService(container: DependencyContainer, token: Token<unknown>, plugin: string): ProvidedService {
  try {
    if (container.isRegistered(token.key, true)) return container.resolve<ProvidedService>(token.key);
  } catch (error) {
    // Resolving a value cannot fail otherwise: tsyringe throws here only once the container is disposed.
    throw new EnvelopeError(
      hostEnvelopeInit(ContractCodes.PLUGIN_UNLOADED, {
        plugin,
        operation: 'services.get',
        received_value: token.name,
        remediation: `${plugin} used its context after it was stopped or failed; stop background work in stop() and do not keep the context past it.`,
      }),
      { cause: error },
    );
  }
  throw new EnvelopeError(
    hostEnvelopeInit(ContractCodes.SERVICE_NOT_FOUND, {
      plugin,
      operation: 'services.get',
      failed_parameter: 'token',
      received_value: token.name,
      remediation: `No plugin provides service "${token.name}"; load a plugin that provides it, or declare it optional(token) in ${plugin}'s deps if ${plugin} can do without it.`,
    }),
  );
}

/** The service names `manifest` and `deps` declare, for `PluginContextInput.declaredServices`. */
export function declaredServices(manifest: Manifest, deps: readonly DependencyInfo[]): ReadonlySet<string> {
  const services = [...manifest.requires, ...manifest.provides].filter((entry) => entry.startsWith('service:')).map((entry) => entry.slice('service:'.length));
  return new Set([...services, ...deps.map((dep) => dep.token.name)]);
}

function undeclared(plugin: string, service: string): EnvelopeError {
  return new EnvelopeError(
    hostEnvelopeInit(ContractCodes.SERVICE_UNDECLARED, {
      plugin,
      operation: 'services.get',
      failed_parameter: 'token',
      received_value: service,
      expected: 'a service in deps or requires',
      remediation: `${plugin} asked for the "${service}" service without declaring it; add it to the plugin's deps (optional(token) if it can do without) or "service:${service}" to its requires.`,
    }),
  );
}

function permissionDenied(plugin: string, operation: string, permission: string): EnvelopeError {
  return new EnvelopeError(
    hostEnvelopeInit(ContractCodes.PLUGIN_PERMISSION_UNDECLARED, {
      plugin,
      operation,
      failed_parameter: '$.permissions',
      expected: permission,
      remediation: `${plugin} used ${operation} without declaring it; add "${permission}" to its manifest permissions.`,
    }),
  );
}
