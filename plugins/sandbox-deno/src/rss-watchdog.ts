import { readFile } from 'node:fs/promises';

/** How often the process's resident memory is sampled. */
const SAMPLE_MS = 20;

/**
 * Calls `onExceeded` once when a process's resident memory passes a limit. `--max-old-space-size` bounds
 * V8's old space only; ArrayBuffers live outside it (measured on Deno 2.9.6: ten 100 MB Uint8Arrays
 * filled under a 64 MiB heap limit left the process at 1031 MB resident). Linux only (`/proc`); elsewhere
 * only the heap limit holds. Between two samples a fast allocation can overshoot by what it touches in
 * 20 ms.
 */
export class RssWatchdog {
  #timer: NodeJS.Timeout | undefined;
  #sampling = false;

  constructor(
    private readonly pid: number,
    private readonly limitBytes: number,
    private readonly onExceeded: (rssBytes: number) => void,
  ) {
    this.#timer = setInterval(() => void this.#sample(), SAMPLE_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #sample(): Promise<void> {
    if (this.#sampling || this.#timer === undefined) return;
    this.#sampling = true;
    try {
      const rss = rssOf(await readFile(`/proc/${this.pid}/status`, 'utf8'));
      if (rss !== undefined && rss > this.limitBytes && this.#timer !== undefined) {
        this.stop();
        this.onExceeded(rss);
      }
    } catch {
      // No /proc (not Linux) or the process is gone: nothing is left to watch, and a sampler must never
      // throw into the host. The heap limit and the timeout still hold.
      this.stop();
    } finally {
      this.#sampling = false;
    }
  }
}

/** VmRSS of a `/proc/<pid>/status` text, in bytes. */
export function rssOf(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}
