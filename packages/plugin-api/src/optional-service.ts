import type { PluginContext } from './context.js';
import { isEnvelopeError } from './envelope.js';
import type { Token } from './tokens.js';

/**
 * The service `token` names, or `undefined` when no plugin provides it: for services a plugin can do
 * without (the taint layer, the judge). Any other failure, such as a permission the plugin lacks, is
 * thrown, so a refusal is never taken for an absence.
 */
export function optionalService<T>(services: Pick<PluginContext['services'], 'get'>, token: Token<T>): T | undefined {
  try {
    return services.get(token);
  } catch (error) {
    if (isEnvelopeError(error) && error.envelope.code === 'SERVICE_NOT_FOUND') return undefined;
    throw error;
  }
}
