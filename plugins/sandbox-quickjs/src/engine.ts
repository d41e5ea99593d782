import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

/** The few WebAssembly APIs used here: Node has them, but the project's `lib` (ES2023, no DOM) does not type them. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  readonly Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** WebAssembly pages of 64 KiB. */
const PAGE = 64 * 1024;
/** The module's own minimum (16 MiB): its data, C stack and initial heap. */
const MIN_PAGES = 256;

/** One QuickJS engine: a WebAssembly instance with a linear memory of its own. */
export interface Engine {
  readonly module: QuickJSWASMModule;
  readonly memory: WasmMemory;
  /** The most its memory may grow to, in bytes. */
  readonly maxBytes: number;
}

let compiled: Promise<object> | undefined;
let library: Promise<{ core: typeof import('quickjs-emscripten-core'); variant: QuickJSSyncVariant }> | undefined;

/**
 * The engine's JavaScript (QuickJS's bindings and the Emscripten glue), loaded on the first run: every
 * nodwyn process loads this plugin, and most never run a capability.
 */
function quickjsLibrary() {
  library ??= Promise.all([import('quickjs-emscripten-core'), import('@jitl/quickjs-wasmfile-release-sync')])
    .then(([core, glue]) => ({ core, variant: glue.default as unknown as QuickJSSyncVariant }))
    .catch((error: unknown) => {
      library = undefined;
      throw error;
    });
  return library;
}

/** The compiled QuickJS module, compiled once per process (about 25 ms); instances are cheap. */
function compiledModule(): Promise<object> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))
    .then((bytes) => wasm.compile(bytes))
    .catch((error: unknown) => {
      compiled = undefined;
      throw error;
    });
  return compiled;
}

/**
 * A fresh engine whose whole linear memory is capped at `memoryMb` MiB (at least the module's 16 MiB).
 * This cap, not QuickJS's own allocation counter, is the memory limit: this build cannot measure the
 * blocks it allocates, so its counter sees a fraction of what the code holds. A memory of its own also
 * means no run ever shares an address space with another, whatever a bug in the engine might let code read.
 */
export async function newEngine(memoryMb: number): Promise<Engine> {
  const maximum = Math.max(MIN_PAGES, Math.ceil((memoryMb * 1024 * 1024) / PAGE));
  const memory = new wasm.Memory({ initial: MIN_PAGES, maximum });
  const [{ core, variant }, wasmModule] = await Promise.all([quickjsLibrary(), compiledModule()]);
  const module = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmModule, wasmMemory: memory }));
  return { module, memory, maxBytes: maximum * PAGE };
}
