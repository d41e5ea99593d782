import type { Confirmer } from '@nodwyn/plugin-api';
import { createInterface } from 'node:readline/promises';
import { forTerminal } from './terminal-text.js';

/**
 * `--yes`: every confirmation is granted, as the person said up front, except security questions (a
 * secret or tainted value leaving for an unbound destination), which the guard never puts to a blanket grant.
 */
export const grantAll: Confirmer = { blanket: true, confirm: async () => ({ granted: true, by: '--yes' }) };

/** True when a person is at the terminal to answer (stdin to read from, stderr to ask on). */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Asks on the terminal; anything but "y" or "yes" declines. */
export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** Asks the person at the terminal; anything but "y" or "yes" declines. The log records the answer as by `terminal`. */
export function terminalConfirmer(): Confirmer {
  return {
    async confirm(request) {
      const args = JSON.stringify(request.args);
      const shown = args.length > 300 ? `${args.slice(0, 300)}…` : args;
      const effects = (request.effects ?? []).map((effect) => `\n  • ${effect}`).join('');
      const granted = await askYesNo(forTerminal(`\nnodwyn: ${request.reason}.\n  ${request.name} ${shown}${effects}\nAllow?`));
      return { granted, by: 'terminal' };
    },
  };
}

/** `--yes` grants; a terminal asks; otherwise nobody is there and confirmations are denied. */
export function confirmerFor(yes: boolean | undefined): Confirmer | undefined {
  if (yes) return grantAll;
  if (canAsk()) return terminalConfirmer();
  return undefined;
}
