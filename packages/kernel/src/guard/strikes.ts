import { envelope, type Envelope } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';

/** The event that records one strike: an answer that depended on a match against a remembered secret. */
export const STRIKE_EVENT = 'security.withheld';

/** Strikes a session may take before the kernel refuses every further call and model turn in it. */
export const DEFAULT_STRIKE_LIMIT = 3;

/**
 * What replaces model output, or a tool result, in which a remembered secret value was found. One fixed
 * text, whatever matched and where: no class, no position, no length, so the model learns one bit (this
 * output matched) and nothing about which of its strings did.
 */
export const WITHHELD_NOTICE =
  '[nodwyn] This output was withheld as a whole: it contained a value nodwyn remembers as a secret. Nothing of it was kept, shown or run. Refer to secrets only by handle ({{secret:NAME}}); do not try to write or reproduce their values.';

/**
 * Counts strikes per session. A probing model learns at most one bit per answer that depends on a secret
 * (withheld or not, refused or sent), and the positive answers are what it can build on, so they are
 * capped: once a session has `limit` strikes, the guard refuses every call in it and the floor ends the
 * turn. The count is rebuilt from the log (a new process, or a fork, starts from what its lineage holds).
 */
export class Strikes {
  readonly #counts = new Map<string, number>();

  constructor(readonly limit: number, private readonly fromLog: (session: string) => number) {}

  /** The strikes the session has taken. */
  of(session: string): number {
    let count = this.#counts.get(session);
    if (count === undefined) this.#counts.set(session, (count = this.fromLog(session)));
    return count;
  }

  /** True once the session may do nothing more. */
  exhausted(session: string): boolean {
    return this.of(session) >= this.limit;
  }

  /** Called after a strike event was appended (the log already holds it when the count is first read). */
  recorded(session: string): void {
    const known = this.#counts.get(session);
    if (known === undefined) this.of(session);
    else this.#counts.set(session, known + 1);
  }
}

/** The envelope of every call and turn in a session that has used up its strikes. */
export function strikesEnvelope(limit: number): Envelope {
  return envelope({
    category: 'LIMIT_EXCEEDED',
    code: KernelCodes.SECURITY_STRIKES_EXCEEDED,
    expected: `fewer than ${limit} outputs that match a remembered secret`,
    retryable: 'never',
    remediation: `The model's output or its requests matched a remembered secret ${limit} times in this session (see the security.withheld events in \`nodwyn log show\`), so nodwyn stopped it: a model that probes for a secret must not keep learning. Start a new session; if the model was not probing, check what it was asked to do with secret material.`,
  });
}

/** The envelope of a call whose output was withheld, or that belonged to a withheld model message. */
export function withheldEnvelope(operation: string): Envelope {
  return envelope({
    category: 'PERMISSION_DENIED',
    code: KernelCodes.SECURITY_OUTPUT_WITHHELD,
    operation,
    retryable: 'never',
    remediation: WITHHELD_NOTICE,
  });
}
