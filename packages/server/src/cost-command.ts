import type { LogEvent, Usage } from '@nodwyn/protocol';
import type { CommandContext } from './command-context.js';

interface Totals {
  calls: number;
  input: number;
  output: number;
  costUsd: number;
  /** Calls whose model has no price, so their cost is not known. */
  unpriced: number;
}

/**
 * `/cost`: the tokens and cost of the session's model calls so far and of its last turn, summed from the
 * log's `message.assistant` events (`usage`, `cost_usd`), so it is the same in every front end and after
 * a restart. A call of a model without a price is counted, and said to have no known cost, never guessed.
 */
export function costCommand(ctx: CommandContext): string {
  const log = ctx.scope.kernel.log;
  const calls = log.readTypes(ctx.session, ['message.assistant']);
  if (calls.length === 0) return 'No model calls in this session yet.';
  const turnStart = log.lastSeqOf(ctx.session, ['turn.started']) ?? 0;
  return [`This session: ${describe(totals(calls))}.`, `Last turn: ${describe(totals(calls.filter((e) => e.seq > turnStart)))}.`].join('\n');
}

function totals(events: readonly LogEvent[]): Totals {
  const sum: Totals = { calls: 0, input: 0, output: 0, costUsd: 0, unpriced: 0 };
  for (const event of events) {
    const usage = event.payload.usage as Usage | undefined;
    const cost = event.payload.cost_usd;
    sum.calls += 1;
    sum.input += usage?.input ?? 0;
    sum.output += usage?.output ?? 0;
    if (typeof cost === 'number') sum.costUsd += cost;
    else sum.unpriced += 1;
  }
  return sum;
}

function describe(t: Totals): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const cost = t.unpriced === t.calls ? 'cost unknown (no price for the model)' : `$${t.costUsd.toFixed(4)}${t.unpriced > 0 ? ` (and ${t.unpriced} call${t.unpriced === 1 ? '' : 's'} of unknown cost)` : ''}`;
  return `${n(t.input)} tokens in, ${n(t.output)} out, ${cost}, over ${t.calls} model call${t.calls === 1 ? '' : 's'}`;
}
