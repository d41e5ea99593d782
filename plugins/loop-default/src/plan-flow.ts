import type { AssistantMessage, Judge, TurnFloor } from '@nodwyn/plugin-api';
import { loopError } from './errors.js';

/** The first draft and at most three revisions (docs/architecture.md §5). */
export const MAX_DRAFTS = 4;

/** Whether the judge may score plans: configured, and allowed to see them. */
export function canScorePlans(judge: Judge | undefined): judge is Judge {
  return judge !== undefined && judge.configured && judge.content !== 'none';
}

/**
 * Asks the model for a plan and has it approved before the turn goes on: by the judge when one can score
 * plans (revised on its feedback, at most `MAX_DRAFTS` drafts), else by the person. A draft that makes
 * tool calls has them run (each gets its result) and uses up its round. Anything but an approval throws:
 * a judge that fails, a person who says no, or the last revision still not approved.
 */
export async function planFlow(floor: TurnFloor, judge: Judge | undefined, ask: string, reason: string): Promise<void> {
  floor.plans.request(reason);
  for (let round = 1; round <= MAX_DRAFTS; round++) {
    const draft = await floor.callModel();
    if (draft.toolCalls.length > 0) {
      await floor.runToolCalls(draft);
      continue;
    }
    if (canScorePlans(judge) ? await judged(floor, judge, ask, draft, round) : await confirmed(floor, draft, round)) return;
  }
  throw loopError('PLAN_NOT_APPROVED', {
    operation: 'plan',
    remediation: `No plan was approved after ${MAX_DRAFTS} drafts, so nothing that needs one ran. Rephrase the ask more precisely, or approve the plan yourself: run again without a judge (the person is asked) or with a lower [judge] threshold.`,
  });
}

async function judged(floor: TurnFloor, judge: Judge, ask: string, draft: AssistantMessage, round: number): Promise<boolean> {
  let verdict;
  try {
    verdict = await judge.scorePlan({ session: floor.session, ask, plan: draft.text, round, window: await floor.window() }, floor.signal);
  } catch (error) {
    // Fails closed: the draft is recorded as not approved and the turn ends with the judge's envelope.
    floor.plans.record({ plan: draft.text, approved: false, by: 'judge', round });
    throw error;
  }
  const { approved, score, feedback } = verdict;
  floor.plans.record({ plan: draft.text, approved, by: 'judge', round, score, ...(feedback ? { feedback } : {}) });
  return approved;
}

async function confirmed(floor: TurnFloor, draft: AssistantMessage, round: number): Promise<boolean> {
  const approved = await floor.plans.confirm(draft.text);
  floor.plans.record({ plan: draft.text, approved, by: 'person', round });
  if (approved) return true;
  throw loopError('PLAN_REJECTED', {
    operation: 'plan',
    remediation: 'The plan was not approved by a person (declined, or nobody could be asked), so nothing that needs one ran. Run again interactively to review the plan, or change the ask.',
  });
}
