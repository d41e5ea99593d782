import { definePlugin, TaintToken, type IngressStage, type LogStage } from '@nodwyn/plugin-api';
import { PLUGIN_NAME, taintError } from './errors.js';
import { MemoryFile } from './memory-file.js';
import { MAX_VALUES_PER_SESSION, TaintRegistry, unionTaint, WINDOW } from './taint-registry.js';

export { TaintErrorCode } from './errors.js';
export { MemoryFile } from './memory-file.js';
export { MAX_VALUES_PER_SESSION, TaintRegistry, unionTaint, WINDOW } from './taint-registry.js';

// The memory earlier processes left in the data directory; a failure is the plugin's, never silent.
function openMemory(dataDir: string): ReturnType<typeof MemoryFile.open> {
  try {
    return MemoryFile.open(dataDir, WINDOW, MAX_VALUES_PER_SESSION);
  } catch (error) {
    throw taintError(
      'TAINT_MEMORY_FAILED',
      { operation: 'register', remediation: `L2 could not open its memory (taint.key, taint-memory.jsonl) in ${dataDir}. Check that the data directory is writable by you.` },
      error,
    );
  }
}

/**
 * L2: the `taint` service; an ingress stage that tags each result with the call's own taint plus the tags
 * of every remembered value found in it, so taint follows values across primitive calls; and a log stage
 * that keeps remembered values out of the log in any spelling L1 does not know (a base64 the model wrote).
 * What it remembers outlives the process, as keyed fingerprints in the data directory (see `MemoryFile`).
 */
export const redactL2Plugin = definePlugin({
  manifest: {
    name: PLUGIN_NAME,
    version: '0.1.0',
    apiVersion: '^0.1.0',
    // Its section shapes taint tracking, which keeps secrets from leaving: only the person's own config sets it.
    userOnlyConfig: true,
    description: 'Taint tracking: flagged and keychain values carry their classes as tags, raw, encoded or split.',
    provides: ['service:taint', 'guard-stage:redact-l2-ingress', 'guard-stage:redact-l2-log'],
  },
  register(ctx) {
    const registry = new TaintRegistry(openMemory(ctx.dataDir));
    ctx.services.provide(TaintToken, registry);
    const stage: IngressStage = {
      name: 'redact-l2-ingress',
      slot: 'ingress',
      filter: (call, result) => ({ ...result, taint: unionTaint(result.taint, call.taint, registry.tagsOf(call.session, result.content)) }),
    };
    ctx.guard.addStage(stage);
    const log: LogStage = { name: 'redact-l2-log', slot: 'log', filter: (draft) => ({ ...draft, payload: redactStrings(draft.payload, (text) => registry.redact(draft.session, text)) as Record<string, unknown> }) };
    ctx.guard.addStage(log);
  },
});

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, redact));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, redact)]));
  return value;
}
