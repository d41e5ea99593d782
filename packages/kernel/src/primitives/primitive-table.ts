import {
  EnvelopeError,
  HOST_NAME,
  MODEL_NAME,
  TIERS,
  TOOL_KINDS,
  type PrimitiveDefinition,
  type PrimitiveInfo,
  type PrimitiveSource,
  type Tier,
} from '@nodwyn/plugin-api';
import { z } from 'zod';
import { KernelCodes } from '../errors.js';

/** A primitive in the table: its definition plus who owns it. */
export interface RegisteredPrimitive extends PrimitiveDefinition<unknown> {
  readonly owner: string;
  readonly inputSchema: Record<string, unknown>;
}

/** Told when a registration replaced an existing primitive, so the replacement can be logged. */
export type ReplacementListener = (change: { name: string; previousOwner: string; owner: string }) => void;

/**
 * name → primitive. Names are checked against the visibility's pattern; registering a taken name is an
 * error unless the registrant says it replaces, and every replacement is reported to be logged.
 */
export class PrimitiveTable {
  readonly #entries = new Map<string, RegisteredPrimitive>();
  readonly #sources: { readonly owner: string; readonly source: PrimitiveSource }[] = [];
  /** Source entries as registered primitives, per definition object (its JSON Schema is built once). */
  readonly #sourced = new WeakMap<PrimitiveDefinition<unknown>, RegisteredPrimitive | null>();
  readonly #onReplace: ReplacementListener;

  constructor(onReplace: ReplacementListener) {
    this.#onReplace = onReplace;
  }

  /** Adds a primitive; `replace` must be set to take over an existing name. */
  register<I>(owner: string, typed: PrimitiveDefinition<I>, options: { replace?: boolean } = {}): void {
    // The guard parses arguments with `input` before any handler or classifier sees them, so widening the
    // argument type to unknown here cannot let a wrongly typed value through.
    const definition = typed as unknown as PrimitiveDefinition<unknown>;
    checkDefinition(definition);
    const previous = this.#entries.get(definition.name);
    if (previous && !options.replace) {
      throw new EnvelopeError({
        category: 'PRECONDITION_FAILED',
        code: KernelCodes.PRIMITIVE_EXISTS,
        plugin: owner,
        failed_parameter: '$.name',
        received_value: definition.name,
        remediation: `Primitive "${definition.name}" is already registered by ${previous.owner}. Pick another name, or register with { replace: true } to replace it on purpose.`,
      });
    }
    this.#entries.set(definition.name, { ...definition, owner, inputSchema: inputSchemaOf(definition) });
    if (previous) this.#onReplace({ name: definition.name, previousOwner: previous.owner, owner });
  }

  /**
   * Adds a source whose entries come and go (see `PrimitiveSource`). Its entries are checked like
   * registrations; one that fails the checks, or whose name a registered primitive holds, is left out,
   * and so is everything of a source that throws.
   */
  addSource(owner: string, source: PrimitiveSource): void {
    if (this.#sources.some((s) => s.source.name === source.name)) {
      throw new EnvelopeError({
        category: 'PRECONDITION_FAILED',
        code: KernelCodes.PRIMITIVE_EXISTS,
        plugin: owner,
        failed_parameter: '$.name',
        received_value: source.name,
        remediation: `A primitive source named "${source.name}" is already added; give the source another name.`,
      });
    }
    this.#sources.push({ owner, source });
  }

  /** The primitive of that exact name, or undefined. Registered primitives win over sources. */
  get(name: string): RegisteredPrimitive | undefined {
    const registered = this.#entries.get(name);
    if (registered) return registered;
    for (const { owner, source } of this.#sources) {
      const found = this.#fromSource(owner, ask(() => source.get(name)));
      if (found?.name === name) return found;
    }
    return undefined;
  }

  /** Every primitive, sorted by name. */
  list(): PrimitiveInfo[] {
    const all = new Map(this.#entries);
    for (const { owner, source } of this.#sources) {
      for (const definition of ask(() => source.list()) ?? []) {
        const found = this.#fromSource(owner, definition);
        if (found && !all.has(found.name)) all.set(found.name, found);
      }
    }
    return [...all.values()]
      .map((p) => ({
        name: p.name,
        description: p.description,
        tier: p.tier,
        visibility: p.visibility,
        kind: p.kind ?? 'other',
        owner: p.owner,
        egress: p.egress ?? false,
        inputSchema: p.inputSchema,
      }))
      // Code-unit order, not localeCompare: the order is stable across locales, and ICU costs ~10 ms to load.
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  #fromSource(owner: string, definition: PrimitiveDefinition<unknown> | undefined): RegisteredPrimitive | undefined {
    if (!definition || this.#entries.has(definition.name)) return undefined;
    const cached = this.#sourced.get(definition);
    if (cached !== undefined) return cached ?? undefined;
    let built: RegisteredPrimitive | null = null;
    try {
      checkDefinition(definition);
      built = { ...definition, owner, inputSchema: inputSchemaOf(definition) };
    } catch {
      built = null;
    }
    this.#sourced.set(definition, built);
    return built ?? undefined;
  }
}

/** A source that throws has nothing to offer: one broken source must not break every lookup and listing. */
function ask<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

// `io: 'input'`: the model writes arguments before parsing, so a field with a default is optional to it.
function inputSchemaOf(definition: PrimitiveDefinition<unknown>): Record<string, unknown> {
  return z.toJSONSchema(definition.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

function checkDefinition(definition: PrimitiveDefinition<unknown>): void {
  const pattern = definition.visibility === 'model' ? MODEL_NAME : HOST_NAME;
  if (typeof definition.name !== 'string' || !pattern.test(definition.name)) {
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: KernelCodes.PRIMITIVE_NAME_INVALID,
      failed_parameter: '$.name',
      received_value: definition.name,
      expected: definition.visibility === 'model' ? MODEL_NAME.source : HOST_NAME.source,
      remediation:
        definition.visibility === 'model'
          ? 'Model-visible names are lower_snake_case, start with a letter, at most 64 characters.'
          : 'Host primitive names are area.verb, e.g. model.stream.',
    });
  }
  if (!TIERS.includes(definition.tier as Tier) || typeof definition.handler !== 'function') {
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: KernelCodes.PRIMITIVE_INVALID,
      failed_parameter: TIERS.includes(definition.tier as Tier) ? '$.handler' : '$.tier',
      expected: `tier one of ${TIERS.join(', ')} and a handler function`,
      remediation: `Fix the definition of primitive "${definition.name}".`,
    });
  }
  const kindValid = definition.kind === undefined || TOOL_KINDS.includes(definition.kind);
  if (!kindValid || (definition.effect !== undefined && typeof definition.effect !== 'function')) {
    throw new EnvelopeError({
      category: 'VALIDATION_FAILED',
      code: KernelCodes.PRIMITIVE_INVALID,
      failed_parameter: kindValid ? '$.effect' : '$.kind',
      received_value: kindValid ? typeof definition.effect : definition.kind,
      expected: kindValid ? 'a function of the arguments' : `one of ${TOOL_KINDS.join(', ')}`,
      remediation: `Fix the definition of primitive "${definition.name}".`,
    });
  }
}
