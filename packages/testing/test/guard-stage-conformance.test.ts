import { API_VERSION, definePlugin, envelope, type GuardCall } from '@nodwyn/plugin-api';
import { describe, expect, it } from 'vitest';
import { describeGuardStageConformance, sampleCall } from '../src/index.js';

const SECRET_WORD = /\bnuclear-launch\b/;

/** A policy stage that denies any call whose arguments hold the words "nuclear-launch", and an ingress stage that marks results. */
const wordPolicyPlugin = definePlugin({
  manifest: { name: '@example/plugin-word-policy', version: '1.0.0', apiVersion: `^${API_VERSION}`, provides: ['guard-stage:word-policy', 'guard-stage:word-mark'] },
  register(ctx) {
    ctx.guard.addStage({
      name: 'word-policy',
      slot: 'policy',
      check(call: GuardCall) {
        const text = JSON.stringify(call.args) ?? '';
        if (!SECRET_WORD.test(text)) return { kind: 'allow' };
        return { kind: 'deny', envelope: envelope({ category: 'PERMISSION_DENIED', code: 'WORD_POLICY_DENIED', plugin: '@example/plugin-word-policy', remediation: 'Leave the forbidden words out of the arguments.' }) };
      },
    });
    ctx.guard.addStage({ name: 'word-mark', slot: 'ingress', filter: (_call, result) => ({ ...result, content: result.content.replace(SECRET_WORD, '[word]') }) });
  },
});

describeGuardStageConformance(wordPolicyPlugin, {
  allows: [{ args: { text: 'hello' } }, { args: { text: 'launch the docs' }, tier: 'mutate' }],
  stops: [{ args: { text: 'nuclear-launch now' } }],
});

describe('sampleCall', () => {
  it('fills the fields a sample leaves out and freezes the call, deep, so a stage cannot edit it', () => {
    const call = sampleCall({ args: { list: [{ a: 1 }] }, tier: 'destructive' });
    expect(call).toMatchObject({ name: 'echo', tier: 'destructive', origin: 'model', taint: [] });
    expect(() => ((call.args as { list: { a: number }[] }).list[0]!.a = 2)).toThrow(TypeError);
  });
});
