import type { DependencyContainer } from 'tsyringe';
import {
  EnvelopeError,
  HOST_NAME,
  MODEL_NAME,
  type AgentCommand,
  type CliCommand,
  type ContextContributor,
  type Frontend,
  type GuardStage,
  type LoopStrategy,
  type Permission,
  type PrimitiveDefinition,
  type PrimitiveSource,
  type ProviderFactory,
} from '@nodwyn/plugin-api';
import type { AgentCommandRegistry } from './agent-command-registry.js';
import { assertAgentCommandShape, assertContextContributorShape, assertFrontendShape, assertZod4Schemas } from './contribution-shapes.js';
import { hostEnvelopeInit } from './errors.js';
import type { FrontendRegistry } from './frontend-registry.js';
import type { KernelPort } from './kernel-port.js';

/** One contribution a plugin made in `register`, waiting for `register` to succeed. */
export type Contribution =
  | { readonly kind: 'primitive'; readonly name: string; readonly definition: PrimitiveDefinition<unknown>; readonly replace: boolean }
  | { readonly kind: 'primitive-source'; readonly name: string; readonly source: PrimitiveSource }
  | { readonly kind: 'provider'; readonly name: string; readonly factory: ProviderFactory }
  | { readonly kind: 'loop'; readonly name: string; readonly strategy: LoopStrategy }
  | { readonly kind: 'guard-stage'; readonly name: string; readonly stage: GuardStage }
  | { readonly kind: 'command'; readonly name: string; readonly command: CliCommand }
  | { readonly kind: 'frontend'; readonly name: string; readonly frontend: Frontend }
  | { readonly kind: 'agent-command'; readonly name: string; readonly command: AgentCommand }
  | { readonly kind: 'context'; readonly name: string; readonly contributor: ContextContributor }
  | { readonly kind: 'service'; readonly name: string; readonly key: symbol; readonly value: unknown; readonly permission?: Permission };

/**
 * A service as the root container holds it: the value with the permission its provider's token demanded.
 * Token keys are `Symbol.for(name)`, so any plugin can make a token of the same name without the
 * permission; checking the permission stored here, not the one on the caller's token, is what makes
 * that forgery useless.
 */
export interface ProvidedService {
  readonly value: unknown;
  readonly permission?: Permission;
}

/** `kind:name`, the form manifests use in `provides`. */
export function contributionKey(contribution: Contribution): string {
  return `${contribution.kind}:${contribution.name}`;
}

/** What the host keeps itself instead of handing to the kernel: contributions only the app or the server uses. */
export interface HostRegistries {
  readonly frontends: FrontendRegistry;
  readonly agentCommands: AgentCommandRegistry;
}

/**
 * Holds a plugin's contributions until its `register` returned and its `provides` check passed, then
 * hands them to the kernel in one go. The KernelPort has no way to take a contribution back, so
 * buffering is what keeps a plugin that fails half-way through `register` from leaving half of itself
 * in the kernel. To make the final hand-over unlikely to fail part-way, each contribution is checked
 * when it is made (name shape, and not already taken) — the plugin sees that error at its call site.
 */
export class ContributionBuffer {
  readonly #items: Contribution[] = [];
  #open = true;

  /**
   * @param plugin the owner passed to the kernel
   * @param owners host-wide ledger of applied `kind:name` → owner, shared by every plugin's buffer
   * @param kept the host's own registries, where front ends and agent commands go instead of the kernel
   */
  constructor(
    private readonly plugin: string,
    private readonly kernel: KernelPort,
    private readonly owners: Map<string, string>,
    private readonly kept: HostRegistries,
  ) {}

  /** Records a contribution; throws an `EnvelopeError` if registration is closed, or it is invalid or taken. */
  add(contribution: Contribution): void {
    if (!this.#open) this.#refuseClosed(contribution);
    if (contribution.kind === 'primitive') assertZod4Schemas(this.plugin, contribution.definition);
    this.#assertFree(contribution);
    this.#items.push(contribution);
  }

  /** The `kind:name` of everything contributed so far. */
  keys(): readonly string[] {
    return this.#items.map(contributionKey);
  }

  /** A service this plugin provided but that is not applied yet, so the plugin can use its own services in `register`. */
  pendingService(key: symbol): ProvidedService | undefined {
    const found = this.#items.find((item) => item.kind === 'service' && item.key === key);
    return found?.kind === 'service' ? providedService(found) : undefined;
  }

  /** Refuses further contributions: they would escape the provides check. */
  close(): void {
    this.#open = false;
  }

  /** Hands every contribution to the kernel (services to the root container) and records their owner. */
  apply(root: DependencyContainer): void {
    for (const item of this.#items) {
      this.#applyOne(item, root);
      this.owners.set(contributionKey(item), this.plugin);
    }
  }

  #applyOne(item: Contribution, root: DependencyContainer): void {
    switch (item.kind) {
      case 'primitive':
        return this.kernel.registerPrimitive(this.plugin, item.definition, { replace: item.replace });
      case 'primitive-source':
        return this.kernel.addPrimitiveSource(this.plugin, item.source);
      case 'provider':
        return this.kernel.registerProvider(this.plugin, item.factory);
      case 'loop':
        return this.kernel.registerLoop(this.plugin, item.strategy);
      case 'guard-stage':
        return this.kernel.addStage(this.plugin, item.stage);
      case 'command':
        return this.kernel.registerCommand(this.plugin, item.command);
      case 'frontend':
        return this.kept.frontends.add(this.plugin, item.frontend);
      case 'agent-command':
        return this.kept.agentCommands.add(this.plugin, item.command);
      case 'context':
        return this.kernel.registerContextContributor(this.plugin, item.contributor);
      case 'service':
        root.register(item.key, { useValue: providedService(item) });
    }
  }

  #assertFree(contribution: Contribution): void {
    if (contribution.kind === 'frontend') assertFrontendShape(this.plugin, contribution.frontend);
    if (contribution.kind === 'agent-command') assertAgentCommandShape(this.plugin, contribution.command);
    if (contribution.kind === 'context') assertContextContributorShape(this.plugin, contribution.contributor);
    const key = contributionKey(contribution);
    if (this.keys().includes(key)) this.#refuseDuplicate(key, `${this.plugin} itself`);
    if (contribution.kind === 'primitive') {
      this.#assertPrimitiveName(contribution.definition);
      const existing = this.kernel.listPrimitives().find((info) => info.name === contribution.name);
      if (existing && !contribution.replace) this.#refuseDuplicate(key, existing.owner, 'pass { replace: true } if replacing it is intended, or');
      return;
    }
    const owner = this.owners.get(key);
    if (owner !== undefined) this.#refuseDuplicate(key, owner);
  }

  #assertPrimitiveName(definition: PrimitiveDefinition<unknown>): void {
    const pattern = definition.visibility === 'model' ? MODEL_NAME : HOST_NAME;
    if (pattern.test(definition.name)) return;
    throw new EnvelopeError(
      hostEnvelopeInit('PLUGIN_CONTRIBUTION_INVALID', {
        plugin: this.plugin,
        operation: 'plugin.register',
        failed_parameter: 'primitive.name',
        received_value: definition.name,
        expected: definition.visibility === 'model' ? 'a model tool name like read_file' : 'a host primitive name like area.verb',
        remediation: `Rename primitive "${definition.name}" of ${this.plugin} to match ${pattern.source} (${definition.visibility} visibility).`,
      }),
    );
  }

  #refuseDuplicate(key: string, owner: string, hint = ''): never {
    throw new EnvelopeError(
      hostEnvelopeInit('PLUGIN_CONTRIBUTION_DUPLICATE', {
        plugin: this.plugin,
        operation: 'plugin.register',
        received_value: key,
        remediation: `${this.plugin} registers ${key}, which ${owner} already registered; ${hint ? `${hint} ` : ''}register each contribution once.`,
      }),
    );
  }

  #refuseClosed(contribution: Contribution): never {
    throw new EnvelopeError(
      hostEnvelopeInit('PLUGIN_REGISTRATION_CLOSED', {
        plugin: this.plugin,
        operation: 'plugin.register',
        received_value: contributionKey(contribution),
        remediation: `${this.plugin} contributed ${contributionKey(contribution)} after its register() had returned; make every contribution inside register().`,
      }),
    );
  }
}

function providedService(item: { readonly value: unknown; readonly permission?: Permission }): ProvidedService {
  return Object.freeze(item.permission ? { value: item.value, permission: item.permission } : { value: item.value });
}
