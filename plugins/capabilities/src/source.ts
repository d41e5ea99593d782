import { MODEL_NAME, z, type PrimitiveDefinition, type PrimitiveSource } from '@nodwyn/plugin-api';
import { describeGrants, type CapabilityVersion } from './capability.js';
import type { Capabilities } from './capabilities.js';
import { inputValidator } from './input-schema.js';
import type { Registry } from './registry.js';

/**
 * Offers every active capability to the model as a tool of its own name. The kernel asks on each lookup
 * and listing, so a capability admitted in one turn is a tool from the next, in every later session too.
 * Definitions are kept per version hash, so the kernel builds each one's JSON Schema once.
 */
export function capabilitySource(registry: Registry, capabilities: Capabilities): PrimitiveSource {
  const built = new Map<string, PrimitiveDefinition<unknown>>();
  const definitionOf = (version: CapabilityVersion): PrimitiveDefinition<unknown> => {
    const key = `${version.name}@${version.version}:${version.hash}`;
    let definition = built.get(key);
    if (!definition) {
      definition = {
        name: version.name,
        description: `${version.description} (capability v${version.version}; grants: ${describeGrants(version.grants)})`,
        input: inputValidator(version.input_schema) as z.ZodType<unknown>,
        tier: version.grants.write ? 'mutate' : 'read',
        visibility: 'model',
        handler: (args, call) => capabilities.execute(version.name, args, call, true),
      };
      built.set(key, definition);
    }
    return definition;
  };
  return {
    name: 'capabilities',
    get: (name) => {
      if (!MODEL_NAME.test(name)) return undefined;
      const version = registry.listed(name);
      return version ? definitionOf(version) : undefined;
    },
    list: () => registry.active().map(definitionOf),
  };
}
