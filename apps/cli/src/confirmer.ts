import type { Confirmer } from '@nodwyn/plugin-api';
import { createInterface } from 'node:readline/promises';

/** `--yes`: every confirmation is granted, as the person said up front. */
export const grantAll: Confirmer = { confirm: async () => true };

/** Asks the person at the terminal; anything but "y" or "yes" declines. */
export function terminalConfirmer(): Confirmer {
  return {
    async confirm(request) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const args = JSON.stringify(request.args);
        const shown = args.length > 300 ? `${args.slice(0, 300)}…` : args;
        const answer = await rl.question(`\nnodwyn: ${request.reason}.\n  ${request.name} ${shown}\nAllow? [y/N] `);
        return /^y(es)?$/i.test(answer.trim());
      } finally {
        rl.close();
      }
    },
  };
}

/** `--yes` grants; a terminal asks; otherwise nobody is there and confirmations are denied. */
export function confirmerFor(yes: boolean | undefined): Confirmer | undefined {
  if (yes) return grantAll;
  if (process.stdin.isTTY && process.stderr.isTTY) return terminalConfirmer();
  return undefined;
}
