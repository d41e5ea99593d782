import { EnvelopeError, envelope, type Envelope, type PluginContext, type PluginDefinition } from '@nodwyn/plugin-api';
import { hostEnvelopeInit, pluginEnvelope, type PluginHostErrorCode } from './errors.js';
import { withTimeout } from './timeout.js';

/** A lifecycle hook of a plugin. */
export type HookPhase = 'register' | 'start' | 'stop';

const FAILED_CODE: Record<HookPhase, PluginHostErrorCode> = {
  register: 'PLUGIN_REGISTER_FAILED',
  start: 'PLUGIN_START_FAILED',
  stop: 'PLUGIN_STOP_FAILED',
};

/**
 * Runs one hook of a plugin, with its resolved dependencies, under the host's timeout; returns the envelope of its failure, or
 * undefined when it succeeded (or the plugin has no such hook).
 */
export async function runHook(
  definition: PluginDefinition,
  phase: HookPhase,
  context: PluginContext,
  deps: Readonly<Record<string, unknown>>,
  timeoutMs: number,
): Promise<Envelope | undefined> {
  const hook = definition[phase];
  if (hook === undefined) return undefined;
  const plugin = context.plugin.name;
  try {
    await withTimeout(() => hook.call(definition, context, deps), timeoutMs, () => new EnvelopeError(timeoutEnvelope(plugin, phase, timeoutMs)));
    return undefined;
  } catch (error) {
    return pluginEnvelope(error, plugin, `plugin.${phase}`, FAILED_CODE[phase]);
  }
}

function timeoutEnvelope(plugin: string, phase: HookPhase, timeoutMs: number): Envelope {
  return envelope(
    hostEnvelopeInit(phase === 'stop' ? 'PLUGIN_STOP_TIMEOUT' : 'PLUGIN_START_TIMEOUT', {
      plugin,
      operation: `plugin.${phase}`,
      expected: `${phase}() to settle within ${timeoutMs} ms`,
      remediation: `${plugin}'s ${phase}() did not finish within ${timeoutMs} ms; move slow work out of ${phase}() (start it in the background) or raise the host's timeoutMs.`,
    }),
  );
}
