import { readFile } from 'node:fs/promises';

/** How often the child's resident memory is sampled. */
const SAMPLE_MS = 20;

/**
 * Calls `onExceeded` once when a child process's resident memory passes a limit, for sandbox runners that
 * run code in a child (Deno, Node). `--max-old-space-size` bounds only V8's heap; Buffers and ArrayBuffers
 * live outside it (measured: 2 GB of Buffers under a 64 MiB heap limit on Node 20.20, 1031 MB resident on
 * Deno 2.9.6), so the runner also watches the process from outside. Linux only (`/proc/<pid>/status`); elsewhere only the
 * heap limit applies. Between two samples a fast allocation can overshoot the limit by what it allocates
 * in 20 ms.
 */
export class RssWatchdog {
  #timer: NodeJS.Timeout | undefined;
  #reading = false;

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
    if (this.#reading || this.#timer === undefined) return;
    this.#reading = true;
    try {
      const rss = rssOf(await readFile(`/proc/${this.pid}/status`, 'utf8'));
      if (rss !== undefined && rss > this.limitBytes && this.#timer !== undefined) {
        this.stop();
        this.onExceeded(rss);
      }
    } catch {
      // No /proc (not Linux), or the process is gone: there is nothing left to watch, and a sampler
      // must never throw into the host. The heap limit and the timeout still hold.
      this.stop();
    } finally {
      this.#reading = false;
    }
  }
}

/** VmRSS of a `/proc/<pid>/status` text, in bytes. */
export function rssOf(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}
