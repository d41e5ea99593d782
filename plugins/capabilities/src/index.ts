import { definePlugin, optional } from '@nodwyn/plugin-api';
import { sandboxRunnerToken } from '@nodwyn/plugin-api/sandbox';
import { admissionProof } from './admission-proof.js';
import { authorOf } from './author.js';
import { capabilitiesAgentCommand } from './capabilities-agent-command.js';
import { Capabilities } from './capabilities.js';
import { capabilityCommand } from './capability-command.js';
import { readConfig } from './config.js';
import { PLUGIN_NAME } from './errors.js';
import { registrationPolicy } from './registration-policy.js';
import { Registry } from './registry.js';
import { capabilitySource } from './source.js';
import { capabilityTools } from './tools.js';

/**
 * Self-extension (docs/architecture.md §7): the model registers tools it writes (capabilities), which are
 * type-stripped, tested on their examples in a sandbox, admitted in one transaction in the kernel
 * database with every version kept, and offered back to it as tools of their own name.
 */
export const capabilitiesPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Its section could admit model-written code without asking (`confirm = "never"`): only the person's own config sets it.
    userOnlyConfig: true,
    description: 'Self-extension done safely: the model registers, tests and runs its own tools (capabilities), versioned in the kernel database and run in a sandbox runner.',
    provides: [
      'primitive:list_capabilities',
      'primitive:register_capability',
      'primitive:execute_capability',
      'primitive:capability.edit',
      'primitive:capability.test',
      'primitive-source:capabilities',
      'guard-stage:capability-registration',
      'command:capability',
      'agent-command:capabilities',
    ],
    requires: [],
    permissions: ['log.read'],
  },
  // Each runner is optional: a capability asking for one that is not loaded is refused when it runs.
  deps: {
    quickjs: optional(sandboxRunnerToken('quickjs')),
    deno: optional(sandboxRunnerToken('deno')),
    node: optional(sandboxRunnerToken('node')),
  },
  register(ctx, runners) {
    const config = readConfig(ctx.config);
    const registry = new Registry(ctx.store, admissionProof(ctx.log));
    const capabilities = new Capabilities({
      registry,
      config,
      runners: (id) => runners[id],
      tools: () => ctx.primitives.list(),
      append: (session, type, payload) => ctx.events.append(session, type, payload),
      author: (session) => authorOf(ctx.log, session),
    });
    for (const tool of capabilityTools(capabilities, config)) ctx.primitives.register(tool);
    ctx.primitives.addSource(capabilitySource(registry, capabilities));
    ctx.guard.addStage(registrationPolicy(capabilities, config));
    ctx.commands.register(capabilityCommand(ctx, registry));
    ctx.agentCommands.register(capabilitiesAgentCommand(registry));
  },
});

export { Registry } from './registry.js';
export { admissionProof, type AdmissionProof } from './admission-proof.js';
export { contentHash, type CapabilityVersion, type CapabilityHead, type Example } from './capability.js';
export { CapabilityCode, PLUGIN_NAME } from './errors.js';
