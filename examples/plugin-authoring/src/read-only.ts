import { definePlugin, envelope, type CheckStage } from '@nodwyn/plugin-api';

const readOnly: CheckStage = {
  name: 'read-only',
  slot: 'policy',
  check(call) {
    if (call.tier === 'read') return { kind: 'allow' };
    return {
      kind: 'deny',
      envelope: envelope({
        category: 'PERMISSION_DENIED',
        code: 'READ_ONLY_MODE',
        operation: call.name,
        remediation: `nodwyn is in read-only mode, so ${call.name} (${call.tier}) may not run. Use a read-only tool, or ask the user to turn read-only mode off.`,
      }),
    };
  },
};

export const readOnlyPlugin = definePlugin({
  manifest: { name: '@acme/nodwyn-plugin-read-only', version: '1.0.0', apiVersion: '^0.1.0', provides: ['guard-stage:read-only'] },
  register(ctx) {
    ctx.guard.addStage(readOnly);
  },
});
