import { toEnvelope, type CheckStage, type EgressSituation, type EgressVerdict, type GuardCall, type Judge, type Verdict } from '@nodwyn/plugin-api';
import { judgeEnvelope, PLUGIN_NAME } from './errors.js';
import { isAmbiguousEgress, scoredTargets, situationOf } from './egress-situation.js';

/** The stage's name in the guard's `egress` slot. */
export const JUDGE_EGRESS_STAGE = 'judge-egress';

const ALLOW: Verdict = { kind: 'allow' };

/**
 * Seam C: when `[judge] egress` is on, the model's own egress calls that the binding table does not decide
 * (no secret handle, no taint) are scored on class, destination and scope. At or above the threshold they
 * pass; below it a person decides, and without one the call is denied; a judge that fails denies.
 */
export function createJudgeEgressStage(deps: { readonly judge: Judge; readonly enabled: boolean; readonly threshold: number }): CheckStage {
  return {
    name: JUDGE_EGRESS_STAGE,
    slot: 'egress',
    async check(call) {
      if (!deps.enabled || !isAmbiguousEgress(call)) return ALLOW;
      const unsure: string[] = [];
      for (const target of scoredTargets(call)) {
        const situation = situationOf(call, target);
        if (!situation) return invalidTarget(call);
        let verdict: EgressVerdict;
        try {
          // check() gets no abort signal; the judge's own timeout bounds the wait.
          verdict = await deps.judge.scoreEgress(situation, new AbortController().signal);
        } catch (error) {
          return { kind: 'deny', envelope: toEnvelope(error, { operation: call.name, plugin: PLUGIN_NAME }) };
        }
        if (!verdict.allow) unsure.push(describe(situation, verdict.score, deps.threshold));
      }
      if (unsure.length === 0) return ALLOW;
      return { kind: 'confirm', reason: unsure.join('; '), otherwise: uncertain(call, unsure) };
    },
  };
}

function describe(situation: EgressSituation, score: number, threshold: number): string {
  return `send data to ${situation.destination} (${situation.scope}): the judge scored it ${score}, below ${threshold}`;
}

function uncertain(call: GuardCall, unsure: readonly string[]) {
  return judgeEnvelope('JUDGE_EGRESS_UNCERTAIN', {
    operation: call.name,
    remediation: `The judge was not confident this request belongs to the task (${unsure.join('; ')}), and no person was there to confirm it. Do the task without sending data there, or ask the user to confirm it in an interactive run.`,
  });
}

function invalidTarget(call: GuardCall): Verdict {
  return {
    kind: 'deny',
    envelope: judgeEnvelope('JUDGE_EGRESS_TARGET_INVALID', {
      operation: call.name,
      remediation: `${call.name} described a request whose URL cannot be read, so the judge cannot score where it goes and it was not sent. Use an absolute http or https URL.`,
    }),
  };
}
