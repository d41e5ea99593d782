import type { CallArgs } from './operation-preflight.js';
import { isSensitivePath, REDACTED } from './operation-redaction.js';
import type { OperationDescriptor } from './operation-types.js';

/** Longest description a preview repeats. */
const DESCRIPTION_MAX = 200;

/**
 * What a call will do, in the words a person confirms: the manifest's confirmation message with its
 * `{name}` placeholders filled from the arguments (sensitive ones redacted), its remediation note,
 * and the operation's description folded to one line and cut.
 */
export function operationEffects(operation: OperationDescriptor, args: CallArgs): string[] {
  const fill = (text: string): string =>
    text.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
      if (isSensitivePath(operation, name)) return REDACTED;
      const value = args[name];
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : whole;
    });
  const description = operation.description?.replace(/\s+/g, ' ').trim();
  const compact = description === undefined || description.length <= DESCRIPTION_MAX ? description : `${description.slice(0, DESCRIPTION_MAX)}…`;
  return [operation.confirmation?.message, operation.confirmation?.remediationNote, compact]
    .filter((text): text is string => text !== undefined && text !== '')
    .map(fill);
}
