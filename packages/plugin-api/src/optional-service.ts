import type { PluginContext } from './context.js';
import { ContractCodes } from './contract-codes.js';
import { isEnvelopeError } from './envelope.js';
import type { Token } from './tokens.js';

/**
 * The service `token` names, or `undefined` when no plugin provides it: for services a plugin can do
 * without (the taint layer, the judge), looked up at call time. The service must still be declared (in
 * `requires` or `deps`); any other failure, such as an undeclared service or a permission the plugin
 * lacks, is thrown, so a refusal is never taken for an absence. Prefer `deps` with `optional(token)`.
 */
export function optionalService<T>(services: Pick<PluginContext['services'], 'get'>, token: Token<T>): T | undefined {
  try {
    return services.get(token);
  } catch (error) {
    if (isEnvelopeError(error) && error.envelope.code === ContractCodes.SERVICE_NOT_FOUND) return undefined;
    throw error;
  }
}
