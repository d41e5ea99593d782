import { definePrimitive, parseNetGrant, z, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import type { Capabilities } from './capabilities.js';
import { RUNNERS, type CapabilityConfig } from './config.js';

const NAME = z.string().min(1).max(64).describe('The capability name: lower_snake_case, e.g. "slugify".');

const ExampleSchema = z
  .object({
    args: z.record(z.string(), z.unknown()).describe('Arguments, as the input schema accepts them.'),
    expect: z.unknown().optional().describe('The exact output expected (compared as JSON).'),
    check: z.string().min(1).max(2000).optional().describe('Instead of expect: a JavaScript function "(output, args) => boolean" that must return true.'),
  })
  .strict()
  .refine((e) => ('expect' in e) !== (e.check !== undefined), { message: 'give exactly one of expect or check' });

const RegisterSchema = z
  .object({
    name: NAME,
    description: z.string().min(1).max(1000).describe('What it does and when to use it; shown to you in later turns.'),
    input_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of the arguments: {"type":"object","properties":{…},"required":[…]}.'),
    code: z
      .string()
      .min(1)
      .describe(
        'TypeScript module whose default export is (args, nodwyn) => result (may be async). The result must be JSON. No imports. ' +
          'nodwyn.readFile(path) and nodwyn.writeFile(path, text) reach workspace files, nodwyn.fetch(url, {method, headers, body}) → {status, headers, body} sends requests, nodwyn.log(...values) logs; each only with its grant.',
      ),
    grants: z
      .object({
        read: z.boolean().optional().describe('Read files in the workspace.'),
        write: z.boolean().optional().describe('Write files in the workspace.'),
        net: z
          .array(
            z
              .string()
              .min(1)
              .max(260)
              .refine((entry) => parseNetGrant(entry) !== undefined, { message: 'a plain host or host:port (no user@, path, scheme, wildcard or IPv4 shorthand)' }),
          )
          .max(20)
          .optional()
          .describe('Hosts ("api.example.com" or "host:port") it may send requests to.'),
      })
      .strict()
      .optional()
      .describe('What the code may reach besides computing. Ask only for what it needs; nothing is granted by default.'),
    runner: z.enum(RUNNERS).optional().describe('The sandbox it runs in; the configured default (QuickJS) unless it needs another.'),
    examples: z.array(ExampleSchema).min(1).describe('Runs in the sandbox before admission; every example must pass.'),
  })
  .strict();

/** list_capabilities, register_capability and execute_capability, plus the host primitive behind `nodwyn capability test`. */
export function capabilityTools(capabilities: Capabilities, config: CapabilityConfig): PrimitiveDefinition<unknown>[] {
  // Room for every example and its check at the example timeout, plus type stripping.
  const admissionTimeoutMs = config.maxExamples * 2 * config.exampleLimits.timeoutMs + 30_000;
  const tools = [
    definePrimitive({
      name: 'list_capabilities',
      description: 'Lists the capabilities (tools you registered earlier): name, description, input, version, grants. Never their code.',
      input: z.object({}).strict(),
      tier: 'read',
      visibility: 'model',
      handler: () => {
        const list = capabilities.list();
        return {
          content: list.length === 0 ? 'No capabilities are registered yet. Register one with register_capability.' : JSON.stringify(list, null, 1),
          data: list,
        };
      },
    }),
    definePrimitive({
      name: 'register_capability',
      description:
        'Registers a tool you write in TypeScript (a capability), or a new version of one. Its examples run in a sandbox first and must all pass; then it is kept in nodwyn\'s registry and offered to you as a tool of its own name from the next turn on, in this and later sessions.',
      input: RegisterSchema,
      tier: 'mutate',
      visibility: 'model',
      timeoutMs: admissionTimeoutMs,
      handler: (args, call) => capabilities.register(args, call),
    }),
    definePrimitive({
      name: 'execute_capability',
      description: 'Runs a registered capability by name with its arguments, in its sandbox. Prefer calling the capability\'s own tool when it is offered.',
      input: z.object({ name: NAME, args: z.record(z.string(), z.unknown()).default({}) }).strict(),
      tier: 'mutate',
      visibility: 'model',
      // "Always" covers this capability, whatever its arguments; never another one.
      effect: (args) => `capability:${args.name}`,
      classify: (args) => capabilities.tierOf(args.name),
      handler: (args, call) => capabilities.execute(args.name, args.args, call),
    }),
    definePrimitive({
      name: 'capability.edit',
      description: 'A person\'s edit of a capability: admitted through the same gate as register_capability, as a new version by "person".',
      input: RegisterSchema,
      tier: 'mutate',
      visibility: 'host',
      timeoutMs: admissionTimeoutMs,
      handler: (args, call) => capabilities.register(args, call, 'person'),
    }),
    definePrimitive({
      name: 'capability.test',
      description: 'Runs the examples of a capability\'s current version again and reports each.',
      input: z.object({ name: NAME }).strict(),
      tier: 'mutate',
      classify: (args) => capabilities.tierOf(args.name),
      visibility: 'host',
      handler: async (args, call) => {
        const { version, outcomes } = await capabilities.test(args.name, call);
        const passed = outcomes.filter((o) => o.ok).length;
        return { content: `${passed} of ${outcomes.length} examples of ${args.name} v${version.version} passed.`, data: { version: version.version, outcomes } };
      },
    }),
  ];
  return tools as unknown as PrimitiveDefinition<unknown>[];
}
