import { EnvelopeError, jsonPath, MODEL_NAME, parseNetGrant, valueAt, type PrimitiveCallContext, type PrimitiveInfo, type Tier, type ToolResult } from '@nodwyn/plugin-api';
import { type SandboxGrants, type SandboxLimits } from '@nodwyn/plugin-api/sandbox';
import { describeGrants, normalGrants, widenedGrants, type CapabilityContent, type CapabilityVersion, type Example } from './capability.js';
import { stripTypes } from './compile.js';
import type { CapabilityConfig, RunnerId } from './config.js';
import { capabilityError, PLUGIN_NAME } from './errors.js';
import { compilePredicates, runExamples, type ExampleOutcome, type SandboxRun } from './examples.js';
import { inputValidator, summariseSchema } from './input-schema.js';
import { notFound, type Registry } from './registry.js';
import { runInSandbox, type RunnerLookup } from './run-version.js';

/** The model tools this plugin registers; no capability may take their names. */
export const OWN_TOOLS = ['list_capabilities', 'register_capability', 'execute_capability'] as const;

/** What register_capability receives (already checked by its input schema). */
export interface RegisterArgs {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Record<string, unknown>;
  readonly code: string;
  readonly grants?: SandboxGrants;
  readonly runner?: RunnerId;
  readonly examples: readonly Example[];
}

/** What the plugin needs from its context. */
export interface CapabilityDeps {
  readonly registry: Registry;
  readonly config: CapabilityConfig;
  readonly runners: RunnerLookup;
  /** Every primitive in the kernel's table. */
  readonly tools: () => readonly PrimitiveInfo[];
  /** Appends an event to a session (inside the registry's transaction). */
  readonly append: (session: string, type: string, payload: Readonly<Record<string, unknown>>) => void;
  /** The model that is talking in a session (`provider/model`). */
  readonly author: (session: string) => string;
}

/** A capability as list_capabilities shows it: never its code. */
export interface CapabilitySummary {
  readonly name: string;
  readonly description: string;
  readonly input: string;
  readonly version: number;
  readonly grants: string;
  readonly runner: RunnerId;
}

/**
 * The capability registry's behaviour: admission (name, size and count limits, type stripping, examples
 * in the sandbox, one transaction), execution of the current admitted version only, and the listing.
 */
export class Capabilities {
  constructor(private readonly deps: CapabilityDeps) {}

  list(): CapabilitySummary[] {
    return this.deps.registry.active().map((v) => ({
      name: v.name,
      description: v.description,
      input: summariseSchema(v.input_schema),
      version: v.version,
      grants: describeGrants(v.grants),
      runner: v.runner,
    }));
  }

  /** What a registration would add beyond the current version (for the confirmation policy). */
  widened(args: RegisterArgs): string[] {
    return widenedGrants(this.deps.registry.peek(args.name), this.#content(args));
  }

  /**
   * The version a person made to stop the name (disable or rm), when that is current. The model may not
   * undo it: registering the name again needs a person, whatever the grants.
   */
  stopped(name: string): CapabilityVersion | undefined {
    const current = this.deps.registry.peek(name);
    return current && current.status !== 'active' ? current : undefined;
  }

  /** The newest version of the name that was active, the one a person can roll back to. */
  lastActive(name: string): CapabilityVersion | undefined {
    return this.deps.registry.history(name).findLast((v) => v.status === 'active');
  }

  /** Whether the name is new to the registry (no version at all). */
  isNew(name: string): boolean {
    return this.deps.registry.head(name) === undefined;
  }

  /** Admits a version; `author` is the model of the session unless a person made it (`nodwyn capability edit`). */
  async register(args: RegisterArgs, call: PrimitiveCallContext, author?: string): Promise<ToolResult> {
    const content = this.#content(args);
    this.#checkName(content.name);
    this.#checkLimits(content);
    const validator = inputValidator(content.input_schema);
    for (const [index, example] of content.examples.entries()) checkExample(validator, example, index);
    const current = this.deps.registry.peek(content.name);
    const [compiled, predicates] = await Promise.all([stripTypes(content.name, content.code), compilePredicates(content.name, content.examples)]);
    const outcomes = await runExamples(content.name, compiled, content.examples, predicates, this.#sandbox(content, this.deps.config.exampleLimits), call, true);
    const failure = outcomes.find((o) => !o.ok);
    if (failure && !failure.ok) throw new EnvelopeError(failure.envelope);
    const stored = this.deps.registry.admit(
      { ...content, status: 'active', compiled, author: author ?? this.deps.author(call.session), session: call.session },
      (type, payload) => this.deps.append(call.session, type, payload),
      (registry) => this.#checkCount(registry, content.name),
    );
    const update = current ? `version ${stored.version} replaces version ${current.version}` : `version ${stored.version}`;
    return {
      content:
        `Admitted capability ${stored.name} ${update} (sha256 ${stored.hash.slice(0, 12)}); ${outcomes.length} example${outcomes.length === 1 ? '' : 's'} passed. ` +
        `From your next turn it is a tool named ${stored.name}; until then call execute_capability with {"name":"${stored.name}","args":{…}}.`,
      data: { name: stored.name, version: stored.version, hash: stored.hash },
    };
  }

  /** Runs the current admitted version; `validated` when the guard already checked the args against its schema. */
  async execute(name: string, args: unknown, call: PrimitiveCallContext, validated = false): Promise<ToolResult> {
    const version = this.runnable(name);
    const checked = validated ? args : checkArgs(version, args);
    const result = await this.#sandbox(version, this.deps.config.limits)({ code: version.compiled, args: checked }, call);
    if (!result.ok) throw new EnvelopeError(result.envelope);
    const text = typeof result.value === 'string' ? result.value : JSON.stringify(result.value);
    return {
      content: result.logs ? `${text}\n\nlog:\n${result.logs}` : text,
      data: { value: result.value, logs: result.logs, version: version.version },
      taint: result.taint,
    };
  }

  /** Runs the current version's examples again (`nodwyn capability test`). */
  async test(name: string, call: PrimitiveCallContext): Promise<{ version: CapabilityVersion; outcomes: ExampleOutcome[] }> {
    const version = this.runnable(name);
    const predicates = await compilePredicates(name, version.examples);
    const outcomes = await runExamples(name, version.compiled, version.examples, predicates, this.#sandbox(version, this.deps.config.exampleLimits), call, false);
    return { version, outcomes };
  }

  /** The tier of a call to this capability: writing files is `mutate`, anything else `read`. */
  tierOf(name: string): Tier {
    return this.deps.registry.listed(name)?.grants.write ? 'mutate' : 'read';
  }

  /** The current version if it may run; otherwise the envelope that says why not. */
  runnable(name: string): CapabilityVersion {
    const version = this.deps.registry.runnable(name);
    if (version) return version;
    const current = this.deps.registry.current(name);
    if (!current) throw notFound(name);
    throw capabilityError('CAPABILITY_DISABLED', {
      operation: name,
      received_value: `${name} v${current.version} (${current.status})`,
      remediation: `A person ${current.status === 'removed' ? 'removed' : 'disabled'} capability ${name}; it does not run. Do the work another way, or ask the user to restore it with \`nodwyn capability rollback ${name} --to N\`.`,
    });
  }

  #content(args: RegisterArgs): CapabilityContent {
    return {
      name: args.name,
      description: args.description,
      input_schema: args.input_schema,
      code: args.code,
      grants: normalGrants(spelledGrants(args.grants ?? {})),
      runner: args.runner ?? this.deps.config.runner,
      examples: args.examples,
    };
  }

  #sandbox(content: Pick<CapabilityContent, 'grants' | 'runner'>, limits: SandboxLimits): SandboxRun {
    return (input, call) =>
      runInSandbox(
        this.deps.runners,
        // A predicate runs in the default runner with no grants: it only looks at the output.
        input.predicate
          ? { runner: this.deps.config.runner, code: input.code, args: input.args, grants: {}, limits }
          : { runner: content.runner, code: input.code, args: input.args, grants: content.grants, limits },
        call,
      );
  }

  #checkName(name: string): void {
    const { namePattern } = this.deps.config;
    if (!MODEL_NAME.test(name) || !namePattern.test(name)) {
      throw capabilityError('CAPABILITY_NAME_INVALID', {
        operation: 'register_capability',
        failed_parameter: '$.name',
        received_value: name,
        expected: namePattern.source,
        remediation: `Capability names are tool names: lower_snake_case, starting with a letter, matching ${namePattern.source}. Pick a name like "slugify" or "count_words".`,
      });
    }
    const holder = this.deps.tools().find((tool) => tool.name === name);
    if ((holder && holder.owner !== PLUGIN_NAME) || (OWN_TOOLS as readonly string[]).includes(name)) {
      throw capabilityError('CAPABILITY_NAME_TAKEN', {
        operation: 'register_capability',
        failed_parameter: '$.name',
        received_value: name,
        remediation: `"${name}" is already a tool${holder ? ` of ${holder.owner}` : ''}; a capability cannot replace it. Pick another name.`,
      });
    }
  }

  #checkLimits(content: CapabilityContent): void {
    const { maxCodeBytes, maxExamples } = this.deps.config;
    const bytes = Buffer.byteLength(content.code);
    if (bytes > maxCodeBytes) {
      throw capabilityError('CAPABILITY_CODE_TOO_LARGE', {
        operation: 'register_capability',
        failed_parameter: '$.code',
        received_value: `${bytes} bytes`,
        expected: `at most ${maxCodeBytes} bytes`,
        remediation: `The code is ${bytes} bytes; capabilities may be at most ${maxCodeBytes} bytes (max_code_bytes in config). Make it smaller or split it.`,
      });
    }
    if (content.examples.length > maxExamples) {
      throw capabilityError('CAPABILITY_EXAMPLE_INVALID', {
        operation: 'register_capability',
        failed_parameter: '$.examples',
        received_value: `${content.examples.length} examples`,
        expected: `1 to ${maxExamples} examples`,
        remediation: `Give at most ${maxExamples} examples (max_examples in config); keep the ones that show distinct cases.`,
      });
    }
    this.#checkCount(this.deps.registry, content.name);
  }

  #checkCount(registry: Registry, name: string): void {
    if (registry.head(name)?.status === 'active') return;
    const count = registry.activeCount();
    if (count >= this.deps.config.maxCapabilities) {
      throw capabilityError('CAPABILITY_LIMIT', {
        operation: 'register_capability',
        received_value: `${count} capabilities`,
        expected: `at most ${this.deps.config.maxCapabilities}`,
        remediation: `There are already ${count} capabilities (max_capabilities in config). Register a new version of an existing one instead, or ask the user to remove one with \`nodwyn capability rm NAME\`.`,
      });
    }
  }
}

/**
 * The grants with each host in the one spelling the runners enforce (lower case, IDNA), so the question a
 * person answers names exactly what is granted. The input schema already refused entries that are not hosts.
 */
function spelledGrants(grants: SandboxGrants): SandboxGrants {
  return grants.net ? { ...grants, net: grants.net.map((entry) => parseNetGrant(entry)?.text ?? entry) } : grants;
}

function checkExample(validator: ReturnType<typeof inputValidator>, example: Example, index: number): void {
  const parsed = validator.safeParse(example.args);
  if (parsed.success) return;
  const issue = parsed.error.issues[0]!;
  throw capabilityError('CAPABILITY_EXAMPLE_INVALID', {
    operation: 'register_capability',
    failed_parameter: `$.examples[${index}].args${jsonPath(issue.path).slice(1)}`,
    received_value: valueAt(example.args, issue.path),
    remediation: `Example ${index + 1}'s args do not match the input schema (${issue.message}); examples must be calls the schema accepts.`,
  });
}

function checkArgs(version: CapabilityVersion, args: unknown): unknown {
  const parsed = inputValidator(version.input_schema).safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw capabilityError('CAPABILITY_ARGS_INVALID', {
    operation: version.name,
    failed_parameter: `$.args${jsonPath(issue.path).slice(1)}`,
    received_value: valueAt(args, issue.path),
    expected: summariseSchema(version.input_schema),
    remediation: `Fix $.args${jsonPath(issue.path).slice(1)} (${issue.message}) and call ${version.name} again; see list_capabilities for its input.`,
  });
}
