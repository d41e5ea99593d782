import { definePlugin, JudgeToken, RedactorToken } from '@nodwyn/plugin-api';
import { DefaultJudge } from './default-judge.js';
import { PLUGIN_NAME } from './errors.js';
import { createJudgeEgressStage, JUDGE_EGRESS_STAGE } from './judge-egress-stage.js';
import { parseJudgeConfig } from './judge-config.js';

/**
 * The judge (docs/architecture.md §6) on any configured provider: the plan gate and plan scoring (seam A) as the
 * `judge` service for loop strategies, and the `judge-egress` guard stage (seam C). Its payloads pass the
 * L1 text layer, each call is logged as `judge.scored`, decisions are made in code from the score, and
 * every failure is a "no".
 */
export const judgePlugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Its section picks the judge's model and what it lets through: only the person's own config sets it.
    userOnlyConfig: true,
    description: 'The judge, on any configured provider and failing closed: the plan gate, plan scoring (seam A) and ambiguous-egress scoring (seam C).',
    provides: ['service:judge', `guard-stage:${JUDGE_EGRESS_STAGE}`],
    permissions: ['net'],
  },
  deps: { redactor: RedactorToken },
  register(ctx, deps) {
    const config = parseJudgeConfig(ctx.settings);
    const judge = new DefaultJudge({
      config,
      complete: (request) => ctx.models.complete(request),
      redactor: () => deps.redactor,
      record: (session, payload) => ctx.events.append(session, 'judge.scored', payload),
    });
    ctx.services.provide(JudgeToken, judge);
    ctx.guard.addStage(createJudgeEgressStage({ judge, enabled: config.egress, threshold: config.threshold }));
  },
});

export { JudgeErrorCode } from './errors.js';
export { parseJudgeConfig, type JudgeConfig } from './judge-config.js';
