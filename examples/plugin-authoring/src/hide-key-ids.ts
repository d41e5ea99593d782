import { definePlugin, type IngressStage } from '@nodwyn/plugin-api';

const AWS_KEY_ID = /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g;

const hideKeyIds: IngressStage = {
  name: 'hide-aws-key-ids',
  slot: 'ingress',
  filter: (_call, result) => ({ ...result, content: result.content.replace(AWS_KEY_ID, '[REDACTED aws_access_key_id]') }),
};

export const hideKeyIdsPlugin = definePlugin({
  manifest: { name: '@acme/nodwyn-plugin-hide-key-ids', version: '1.0.0', apiVersion: '^0.1.0', provides: ['guard-stage:hide-aws-key-ids'] },
  register(ctx) {
    ctx.guard.addStage(hideKeyIds);
  },
});
