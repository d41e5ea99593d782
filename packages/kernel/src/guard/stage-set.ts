import { EnvelopeError, GUARD_SLOTS, type GuardSlot, type GuardStage } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';

/** A stage and the plugin that added it. */
export interface OwnedStage<S extends GuardStage = GuardStage> {
  readonly stage: S;
  readonly owner: string;
}

type StageOf<S extends GuardSlot> = Extract<GuardStage, { slot: S }>;

/** The stages plugins added, per slot, in the order they were added. The kernel owns `execute`. */
export class StageSet {
  readonly #bySlot = new Map<GuardSlot, OwnedStage[]>(GUARD_SLOTS.map((slot) => [slot, []]));

  /** Adds a stage at its slot; the `execute` slot is refused. */
  add(owner: string, stage: GuardStage): void {
    if (!GUARD_SLOTS.includes(stage.slot) || (stage.slot as GuardSlot) === 'execute') {
      throw new EnvelopeError({
        category: 'VALIDATION_FAILED',
        code: KernelCodes.GUARD_SLOT_RESERVED,
        plugin: owner,
        failed_parameter: '$.slot',
        received_value: stage.slot,
        expected: GUARD_SLOTS.filter((s) => s !== 'execute').join(' | '),
        remediation: 'The execute slot belongs to the kernel; add the stage to another slot.',
      });
    }
    this.#bySlot.get(stage.slot)!.push({ stage, owner });
  }

  /** Stages of one slot, typed by the slot. */
  of<S extends GuardSlot>(slot: S): readonly OwnedStage<StageOf<S>>[] {
    return this.#bySlot.get(slot) as OwnedStage<StageOf<S>>[];
  }

  /** Every stage, as `owner/name@slot`, for listings. */
  describe(): string[] {
    return GUARD_SLOTS.flatMap((slot) => this.#bySlot.get(slot)!.map((s) => `${s.owner}/${s.stage.name}@${slot}`));
  }
}
