import type { TurnFloor } from '@nodwyn/plugin-api';

/**
 * Builds the agent's brief at the start of a turn: every part the contributors offer, in their order,
 * logged once per session (docs/architecture.md §10). A part the session already holds is kept as it was
 * logged, so a resumed session sends the model the brief it started with; a part new to the session (a
 * repository trusted since) joins it. The floor sends the logged parts as the system prompt.
 */
export async function buildBrief(floor: TurnFloor): Promise<void> {
  floor.context.add(await floor.context.contributed());
}
