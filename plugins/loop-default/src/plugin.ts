import { definePlugin, JudgeToken, lookup } from '@nodwyn/plugin-api';
import { CompactionAsks, compactCommand } from './compact-command.js';
import { createDefaultLoop } from './default-loop.js';
import { PLUGIN_NAME } from './errors.js';

/** Contributes the `default` loop strategy (`loop:default`), which uses the judge when one is loaded. */
export const loopDefaultPlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'The default agent loop: call the model, run its tool calls, repeat until it answers; plans first when the judge or an irreversible call asks for one; summarises older steps when the window outgrows its budget (/compact on request).',
    provides: ['loop:default', 'agent-command:compact'],
  },
  // Looked up per turn: the judge is optional and may register after this plugin.
  deps: { judge: lookup(JudgeToken) },
  register(ctx, { judge }) {
    const asks = new CompactionAsks();
    ctx.loops.register(createDefaultLoop(judge, asks));
    ctx.agentCommands.register(compactCommand(asks, (session, focus) => ctx.events.append(session, 'compaction.requested', focus ? { focus } : {})));
  },
});
