import { EXIT } from '../exit-codes.js';

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP, so a long-running command (`acp`, `serve`) can end its
 * turns and close the database; a second signal quits at once.
 */
export function untilSignal(): { received: Promise<NodeJS.Signals>; dispose(): void } {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  let handler: (signal: NodeJS.Signals) => void = () => undefined;
  let seen = false;
  const received = new Promise<NodeJS.Signals>((resolve) => {
    handler = (signal) => {
      if (seen) process.exit(EXIT.CANCELLED);
      seen = true;
      resolve(signal);
    };
  });
  for (const signal of signals) process.on(signal, handler);
  return {
    received,
    dispose() {
      for (const signal of signals) process.off(signal, handler);
    },
  };
}
