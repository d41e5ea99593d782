import { envelope, type Confirmer, type Envelope, type GuardCall, type Verdict } from '@nodwyn/plugin-api';
import { KernelCodes } from '../errors.js';

/** The kernel's own policy: destructive and irreversible calls need a person's confirmation. */
export function tierVerdict(call: GuardCall): Verdict {
  if (call.tier === 'destructive' || call.tier === 'irreversible') {
    return { kind: 'confirm', reason: `${call.name} is ${call.tier}` };
  }
  return { kind: 'allow' };
}

/**
 * The hard trigger (docs/architecture.md §6): an irreversible call inside a turn needs an approved plan first,
 * whatever the judge or the person's `--yes` say about single calls.
 */
export function planRequired(call: GuardCall): Envelope {
  return envelope({
    category: 'PRECONDITION_FAILED',
    code: KernelCodes.PLAN_REQUIRED,
    operation: call.name,
    retryable: 'after_remediation',
    remediation: `${call.name} is irreversible, so it runs only after a plan was approved in this turn. Reply with a short numbered plan of what you will do (no tool calls); once it is approved, call ${call.name} again.`,
  });
}

/**
 * Asks the confirmer, if there is one. No confirmer means no person is there: the call is denied with
 * `CONFIRMATION_REQUIRED`; a confirmer that throws counts as a refusal (fail closed).
 */
export async function askConfirmation(
  call: GuardCall,
  reasons: readonly string[],
  confirmer: Confirmer | undefined,
  otherwise?: Envelope,
  security = false,
): Promise<{ ok: true; by: string } | { ok: false; by: string; envelope: Envelope }> {
  const reason = reasons.join('; ');
  // A blanket grant (--yes) was given without seeing this call; a secret leaving needs someone who does.
  if (!confirmer || (security && confirmer.blanket === true)) {
    return {
      ok: false,
      by: 'nobody',
      envelope: otherwise ?? envelope({
        category: 'CONFIRMATION_REQUIRED',
        code: KernelCodes.CONFIRMATION_REQUIRED,
        operation: call.name,
        remediation: security
          ? `${reason}, so it needs a person's confirmation at a terminal; --yes does not give it. Ask the user to bind the secret to this destination (nodwyn bind add) or to run interactively.`
          : `${reason}, so it needs a person's confirmation and none was available. Use a read-only alternative, or ask the user to rerun with --yes or to allow this command in config.`,
      }),
    };
  }
  let granted = false;
  try {
    granted = await confirmer.confirm({ session: call.session, callId: call.id, name: call.name, tier: call.tier, reason, args: call.args, ...(security ? { security } : {}) });
  } catch {
    granted = false;
  }
  if (granted) return { ok: true, by: 'confirmer' };
  return {
    ok: false,
    by: 'confirmer',
    envelope: envelope({
      category: 'CONFIRMATION_REQUIRED',
      code: KernelCodes.CONFIRMATION_DECLINED,
      operation: call.name,
      remediation: `The user declined: ${reason}. Do not retry the same call; ask the user how to proceed.`,
    }),
  };
}
