import { RequestError } from '@agentclientprotocol/sdk';
import { isEnvelopeError, jsonPath, toEnvelope, type Envelope } from '@nodwyn/plugin-api';
import type { z } from '@nodwyn/plugin-api';
import { serverErrors } from './errors.js';

/**
 * JSON-RPC error codes for envelope categories. ACP uses -32002 for a resource that does not exist and
 * -32602 for bad params; every other failure is a server error (-32000), internal faults -32603. The
 * envelope always travels unchanged as the error's `data`.
 */
const CODES: Partial<Record<Envelope['category'], number>> = { NOT_FOUND: -32002, VALIDATION_FAILED: -32602, INTERNAL: -32603 };

/** The JSON-RPC error for a failure: its code from the category, its message the remediation, the envelope as `data`. */
export function rpcError(error: unknown, operation?: string): RequestError {
  if (error instanceof RequestError) return error;
  const env = isEnvelopeError(error) ? error.envelope : toEnvelope(error, { operation });
  return new RequestError(CODES[env.category] ?? -32000, env.remediation, env);
}

/** A params parser for the ACP SDK's `onRequest(method, parser, handler)`: a mismatch is -32602 with an envelope. */
export function paramsParser<S extends z.ZodType>(schema: S, method: string): { parse(params: unknown): z.output<S> } {
  return {
    parse(params) {
      const parsed = schema.safeParse(params ?? {});
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0]!;
      const where = jsonPath(issue.path);
      throw rpcError(
        serverErrors.error('PARAMS_INVALID', {
          operation: method,
          failed_parameter: where,
          expected: issue.message,
          remediation: `Fix ${where} of ${method}: ${issue.message}.`,
        }),
      );
    },
  };
}
