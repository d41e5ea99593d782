/**
 * Runs `work` and rejects with `onTimeout()` if it has not settled within `ms`. The work itself is not
 * cancelled (a plugin hook has no signal to cancel with); its late outcome is ignored.
 */
export async function withTimeout(work: () => unknown, ms: number, onTimeout: () => Error): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    // `then` turns a synchronous throw from `work` into a rejection, like an async hook's.
    await Promise.race([Promise.resolve().then(work), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
