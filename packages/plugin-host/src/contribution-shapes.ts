import { AGENT_COMMAND_NAME, CONTEXT_CONTRIBUTOR_ID, EnvelopeError, RESERVED_AGENT_COMMANDS, type AgentCommand, type ContextContributor, type Frontend, type PrimitiveDefinition } from '@nodwyn/plugin-api';
import { hostEnvelopeInit } from './errors.js';

// A plugin written in plain JavaScript could hand over anything; the app would only find out when the
// person starts that front end, or types that command.

/** Refuses a front end that is not `{ id, description, start }`. */
export function assertFrontendShape(plugin: string, frontend: Frontend | undefined): void {
  if (frontend && typeof frontend.id === 'string' && typeof frontend.description === 'string' && typeof frontend.start === 'function') return;
  throw invalid(plugin, 'frontend', Object.keys(frontend ?? {}), '{ id: string, description: string, start(launch) }', `${plugin} registered a front end without an id, a description or a start function; pass an object that implements Frontend.`);
}

/** Refuses an agent command that is not `{ name, description, hint?, run }`, has a bad name, or takes a reserved one. */
export function assertAgentCommandShape(plugin: string, command: AgentCommand | undefined): void {
  const shaped =
    command !== undefined &&
    typeof command.name === 'string' &&
    typeof command.description === 'string' &&
    typeof command.run === 'function' &&
    (command.hint === undefined || typeof command.hint === 'string');
  if (!shaped) {
    throw invalid(plugin, 'agentCommand', Object.keys(command ?? {}), '{ name: string, description: string, hint?: string, run(input) }', `${plugin} registered an agent command without a name, a description or a run function; pass an object that implements AgentCommand.`);
  }
  if (!AGENT_COMMAND_NAME.test(command.name)) {
    throw invalid(plugin, 'agentCommand.name', command.name, `a name matching ${AGENT_COMMAND_NAME.source}`, `Rename the agent command "${command.name}" of ${plugin}: lowercase letters, digits and dashes, starting with a letter, at most 32.`);
  }
  if (RESERVED_AGENT_COMMANDS.includes(command.name)) {
    throw invalid(plugin, 'agentCommand.name', command.name, `a name other than ${RESERVED_AGENT_COMMANDS.join(', ')}`, `/${command.name} is the agent's or a front end's own command; ${plugin} must pick another name for its command.`);
  }
}

/** Refuses a context contributor that is not `{ id, description, parts }`, or has a bad id. */
export function assertContextContributorShape(plugin: string, contributor: ContextContributor | undefined): void {
  const shaped = contributor !== undefined && typeof contributor.id === 'string' && typeof contributor.description === 'string' && typeof contributor.parts === 'function';
  if (!shaped) {
    throw invalid(plugin, 'context', Object.keys(contributor ?? {}), '{ id: string, description: string, parts(request) }', `${plugin} registered a context contributor without an id, a description or a parts function; pass an object that implements ContextContributor.`);
  }
  if (!CONTEXT_CONTRIBUTOR_ID.test(contributor.id)) {
    throw invalid(plugin, 'context.id', contributor.id, `an id matching ${CONTEXT_CONTRIBUTOR_ID.source}`, `Rename the context contributor "${contributor.id}" of ${plugin}: lowercase letters, digits and dashes, starting with a letter, at most 32.`);
  }
}

/**
 * Refuses a primitive whose `input` or `output` schema was made with zod 3: the kernel needs zod 4's
 * (it parses arguments and derives the JSON Schema models see), and a zod 3 schema fails deep inside
 * it with a message that names neither. A zod 3 schema has `_def` and no `_zod`; a plugin gets one when
 * it installs `zod@3` itself.
 */
export function assertZod4Schemas(plugin: string, primitive: PrimitiveDefinition<unknown>): void {
  for (const parameter of ['input', 'output'] as const) {
    const schema: unknown = primitive[parameter];
    if (typeof schema !== 'object' || schema === null || !('_def' in schema) || '_zod' in schema) continue;
    throw new EnvelopeError(
      hostEnvelopeInit('PLUGIN_SCHEMA_ZOD3', {
        plugin,
        operation: 'plugin.register',
        failed_parameter: `${primitive.name}.${parameter}`,
        received_value: 'a zod 3 schema',
        expected: 'a zod 4 schema',
        remediation: `${plugin} uses zod 3 for the ${parameter} of ${primitive.name}; nodwyn needs zod 4 (\`zod@^4\`): upgrade its zod dependency (zod 3.25 also ships zod 4 as its zod/v4 subpath) and rebuild it.`,
      }),
    );
  }
}

function invalid(plugin: string, parameter: string, received: unknown, expected: string, remediation: string): EnvelopeError {
  return new EnvelopeError(
    hostEnvelopeInit('PLUGIN_CONTRIBUTION_INVALID', { plugin, operation: 'plugin.register', failed_parameter: parameter, received_value: received, expected, remediation }),
  );
}
