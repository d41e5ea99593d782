import { definePlugin } from '@nodwyn/plugin-api';
import { agentContributor } from './agent-brief.js';
import { environmentContributor } from './environment.js';
import { instructionsContributor } from './instructions.js';

/** The package name. */
export const PLUGIN_NAME = '@nodwyn/plugin-context-default';

/**
 * Contributes the parts of the agent's brief (docs/architecture.md §10): who the model is and how to
 * work (`context:agent`), its environment (`context:environment`), and the person's and the trusted
 * repository's instructions (`context:instructions`). The loop strategy logs them and the floor sends them.
 */
export const contextDefaultPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: "The agent's brief: who it is and how to work, its environment, and the person's and the trusted repository's instructions.",
    provides: ['context:agent', 'context:environment', 'context:instructions'],
    permissions: ['fs.read', 'process.spawn'],
  },
  register(ctx) {
    ctx.context.register(agentContributor());
    ctx.context.register(environmentContributor());
    ctx.context.register(instructionsContributor({ workspace: ctx.workspace, configDir: ctx.configDir, trust: ctx.trust }));
  },
});
