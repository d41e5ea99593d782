import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import type { RunState } from './run-state.js';

/** How a value the VM produced ended up, once its promise (if it is one) settled. */
export type Settled =
  | { readonly kind: 'value'; readonly value: QuickJSHandle }
  | { readonly kind: 'error'; readonly error: QuickJSHandle }
  /** Stopped from outside: the deadline passed or the signal aborted. */
  | { readonly kind: 'stopped' }
  /** Pending, with no job queued and no door call in flight: nothing can ever settle it. */
  | { readonly kind: 'never' };

/**
 * Drives the VM until `handle` settles: runs pending jobs, hands door answers in, and sleeps until the
 * next answer, the deadline or the signal when the code waits on the host. Takes ownership of `handle`;
 * the caller owns the value or error it answers.
 */
export async function settle(vm: QuickJSContext, state: RunState, handle: QuickJSHandle): Promise<Settled> {
  try {
    for (;;) {
      state.deliver();
      if (state.stopReason()) return { kind: 'stopped' };
      const jobs = vm.runtime.executePendingJobs();
      if (jobs.error) return { kind: 'error', error: jobs.error };
      if (state.stopReason()) return { kind: 'stopped' };
      const promise = vm.getPromiseState(handle);
      if (promise.type === 'fulfilled') return { kind: 'value', value: promise.notAPromise ? handle.dup() : promise.value };
      if (promise.type === 'rejected') return { kind: 'error', error: promise.error };
      if (!state.waiting) return { kind: 'never' };
      await state.wait();
    }
  } finally {
    handle.dispose();
  }
}
