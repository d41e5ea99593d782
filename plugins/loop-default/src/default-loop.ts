import { ContractCodes, type Judge, type LoopStrategy, type ModelMessage, type TurnFloor } from '@nodwyn/plugin-api';
import { buildBrief } from './brief.js';
import { compact } from './compaction.js';
import type { CompactionAsks } from './compact-command.js';
import { canScorePlans, planFlow } from './plan-flow.js';

/** The person's ask: the latest user message of the window at the start of the turn. */
function askOf(window: readonly ModelMessage[]): string {
  return window.findLast((m) => m.role === 'user' && m.note !== true)?.text ?? '';
}

/** In plan mode, the judge's gate on the ask; a gate that fails asks for a plan (fails closed). */
async function gateSaysPlan(floor: TurnFloor, judge: Judge | undefined, ask: string): Promise<boolean> {
  if (!canScorePlans(judge) || !judge.planMode) return false;
  try {
    return await judge.gate(floor.session, ask, floor.signal);
  } catch (error) {
    if (floor.signal.aborted) throw error;
    return true;
  }
}

/**
 * The default agent loop: build the brief (see `buildBrief`), call the model, run the tool calls it
 * made, and repeat until it answers without one. A plan comes first when the judge's gate asks for one
 * (plan mode), and whenever an irreversible call was denied `PLAN_REQUIRED` (the kernel's hard trigger);
 * see `planFlow`. Budgets, the
 * progress guard and cancellation are the floor's: when the turn must stop, the floor throws, and the
 * error is deliberately left to propagate to the kernel, which ends the turn with it.
 *
 * Before every model call the window is compacted when it is over its budget (see `compact`); a `/compact`
 * the person asked for (`asks`) is done first thing in the next turn.
 *
 * `judge` is looked up per turn, so a judge plugin loaded or not is seen as it is.
 */
export function createDefaultLoop(judge: () => Judge | undefined, asks?: CompactionAsks): LoopStrategy {
  return {
    id: 'default',
    description: 'Builds the brief from the context contributors, calls the model, runs its tool calls, and repeats until it answers without a tool call; asks for an approved plan when the judge or an irreversible call needs one.',
    async run(floor) {
      const reviewer = judge();
      await buildBrief(floor);
      const asked = asks?.take(floor.session);
      if (asked) await compact(floor, { force: true, focus: asked.focus });
      const ask = askOf(await floor.window());
      if (await gateSaysPlan(floor, reviewer, ask)) await planFlow(floor, reviewer, ask, 'the plan gate asked for a plan');
      for (;;) {
        await compact(floor);
        const message = await floor.callModel();
        if (message.toolCalls.length === 0) return { answer: message.text };
        const results = await floor.runToolCalls(message);
        if (!floor.plans.approved() && results.some((r) => r.envelope?.code === ContractCodes.PLAN_REQUIRED)) {
          await planFlow(floor, reviewer, ask, 'an irreversible tool call needs an approved plan');
        }
      }
    },
  };
}

/** The default loop with no judge: plans an irreversible call needs go to the person. */
export const defaultLoop: LoopStrategy = createDefaultLoop(() => undefined);
