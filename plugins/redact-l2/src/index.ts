import { definePlugin, TaintToken, type IngressStage } from '@nodwyn/plugin-api';
import { TaintRegistry, unionTaint } from './taint-registry.js';

export { MAX_VALUES_PER_SESSION, TaintRegistry, unionTaint, WINDOW } from './taint-registry.js';

/**
 * L2: the `taint` service, and an ingress stage that tags each result with the call's own taint plus the
 * tags of every remembered value found in it, so taint follows values across primitive calls.
 */
export const redactL2Plugin = definePlugin({
  manifest: {
    name: '@nodwyn/plugin-redact-l2',
    version: '0.1.0',
    apiVersion: '^0.1.0',
    description: 'Taint tracking: flagged and keychain values carry their classes as tags, raw, encoded or split.',
    provides: ['service:taint', 'guard-stage:redact-l2-ingress'],
  },
  register(ctx) {
    const registry = new TaintRegistry();
    ctx.services.provide(TaintToken, registry);
    const stage: IngressStage = {
      name: 'redact-l2-ingress',
      slot: 'ingress',
      filter: (call, result) => ({ ...result, taint: unionTaint(result.taint, call.taint, registry.tagsOf(call.session, result.content)) }),
    };
    ctx.guard.addStage(stage);
  },
});
