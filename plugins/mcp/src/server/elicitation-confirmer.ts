import type { ConfirmationRequest, Confirmer } from '@nodwyn/plugin-api';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** Sends one `elicitation/create` (form mode) to the client and answers what it replied. */
export type Elicit = (params: ElicitRequestFormParams, signal: AbortSignal | undefined) => Promise<ElicitResult>;

/** The one field of the confirmation form. */
export const CONFIRM_FIELD = 'allow';

const ARGS_SHOWN = 500;

/** The question as the client's person reads it: the tool, its tier, what it would do, its arguments. */
export function confirmationMessage(request: ConfirmationRequest): string {
  const args = JSON.stringify(request.args) ?? '';
  const shown = args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args;
  return [
    `nodwyn asks before running ${request.name} (tier: ${request.tier}): ${request.reason}.`,
    `Effect: ${request.effect}`,
    `Arguments: ${shown}`,
    `Allow this call?`,
  ].join('\n');
}

/**
 * Confirmations put to the MCP client as an elicitation: a form with one boolean, `allow`. Only an
 * `accept` with `allow: true` grants; `decline`, `cancel`, a form without it, or a failed request refuse.
 * The answer is logged as given `by` `mcp:<client name>`.
 *
 * It counts as a blanket grant: the guard never puts a security question (a secret leaving for an unbound
 * destination) to it, since nothing shows that a person, not the remote agent itself, answers the form
 * (docs/architecture.md §3). Such calls are denied, as with `--yes`; binding the secret is the way.
 */
export function elicitationConfirmer(elicit: Elicit, client: string): Confirmer {
  const by = `mcp:${client}`.slice(0, 200);
  return {
    blanket: true,
    async confirm(request) {
      const result = await elicit(
        {
          mode: 'form',
          message: confirmationMessage(request),
          requestedSchema: {
            type: 'object',
            properties: {
              [CONFIRM_FIELD]: { type: 'boolean', title: `Allow ${request.name}`, description: `Run ${request.name} (${request.tier}): ${request.effect}`, default: false },
            },
            required: [CONFIRM_FIELD],
          },
        },
        request.signal,
      );
      const granted = result.action === 'accept' && result.content?.[CONFIRM_FIELD] === true;
      return { granted, by };
    },
  };
}
