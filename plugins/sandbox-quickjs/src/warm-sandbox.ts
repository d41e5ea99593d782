import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { newEngine, type Engine } from './engine.js';
import { PRELUDE_SOURCE } from './prelude.js';

/** The host side of the four doors, bound to the one run a sandbox serves. Door calls answer promises. */
export interface DoorHost {
  readFile(path: QuickJSHandle): QuickJSHandle;
  writeFile(path: QuickJSHandle, text: QuickJSHandle): QuickJSHandle;
  fetch(url: QuickJSHandle, init: QuickJSHandle): QuickJSHandle;
  log(line: QuickJSHandle): void;
}

/** Handles to what the prelude answered. */
export interface Kit {
  readonly nodwyn: QuickJSHandle;
  readonly args: QuickJSHandle;
  readonly result: QuickJSHandle;
}

/** Memory within this much of the cap counts as exhausted: the failed allocation asked for more than was left. */
const EXHAUSTED_SLACK = 0.1;

/**
 * A fresh engine (its own WebAssembly instance and memory) with a runtime, a context and the prelude
 * evaluated, ready for exactly one run. Nothing is shared with any other run: not globals, prototypes or
 * pending jobs, and not even the address space. After its run a sandbox is dropped whole, never reused,
 * so there is nothing to clean and no state to leak.
 */
export class WarmSandbox {
  #host: DoorHost | undefined;

  private constructor(
    readonly engine: Engine,
    readonly runtime: QuickJSRuntime,
    readonly context: QuickJSContext,
    readonly kit: Kit,
  ) {}

  /** Builds a sandbox whose memory is capped at `memoryMb` MiB. */
  static async create(memoryMb: number): Promise<WarmSandbox> {
    const engine = await newEngine(memoryMb);
    const runtime = engine.module.newRuntime();
    const context = runtime.newContext();
    let sandbox: WarmSandbox | undefined;
    const host = (): DoorHost => {
      const bound = sandbox === undefined ? undefined : sandbox.#host;
      if (!bound) throw new Error('this sandbox serves no run');
      return bound;
    };
    const doors = [
      context.newFunction('readFile', (path) => host().readFile(path)),
      context.newFunction('writeFile', (path, text) => host().writeFile(path, text)),
      context.newFunction('fetch', (url, init) => host().fetch(url, init)),
      context.newFunction('log', (line) => host().log(line)),
    ];
    const factory = context.unwrapResult(context.evalCode(PRELUDE_SOURCE, 'nodwyn-prelude.js'));
    const made = context.callFunction(factory, context.undefined, ...doors);
    factory.dispose();
    for (const door of doors) door.dispose();
    const kit = context.unwrapResult(made).consume((k) => ({ nodwyn: context.getProp(k, 'nodwyn'), args: context.getProp(k, 'args'), result: context.getProp(k, 'result') }));
    sandbox = new WarmSandbox(engine, runtime, context, kit);
    return sandbox;
  }

  /** Binds the doors to the run this sandbox serves. */
  bind(host: DoorHost): void {
    this.#host = host;
  }

  /** True when the engine's memory is at (or within a failed allocation of) its cap. */
  memoryExhausted(): boolean {
    return this.engine.memory.buffer.byteLength >= this.engine.maxBytes * (1 - EXHAUSTED_SLACK);
  }
}
