import { definePlugin, optional, TaintToken, z } from '@nodwyn/plugin-api';
import { ClockToken } from './clock.js';

export const todayPlugin = definePlugin({
  manifest: { name: '@acme/nodwyn-plugin-today', version: '1.0.0', apiVersion: '^0.1.0', provides: ['primitive:today'] },
  deps: { clock: ClockToken, taint: optional(TaintToken) },
  register(ctx, deps) {
    // deps.clock: Clock; deps.taint: TaintTracker | undefined (undefined when no plugin provides taint)
    const { clock } = deps;
    ctx.primitives.register({
      name: 'today',
      description: "Today's date, as YYYY-MM-DD.",
      input: z.object({}).strict(),
      tier: 'read',
      visibility: 'model',
      handler: () => ({ content: clock.now().toISOString().slice(0, 10) }),
    });
  },
});
